"""Embeddings: the `Embedder` protocol, its providers (OpenAI-compatible endpoint, local model), the vector
store, the `embed` job and the semantic recall channel."""
