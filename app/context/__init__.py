"""Context blocks of a profile, the frozen system prompt they render into, and the tools they give an LLM."""
