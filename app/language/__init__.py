"""Language: the analysis of text that extraction and recall share.

One module per language (`languages`: each language's words and patterns, English's a package of them)
behind the shared engines that read them: the time parser (`temporal`), the sentence splitter
(`sentences`), formulas, cues, questions, circumstances, base forms of irregular verbs (`lemmas`),
categories and their instances (`categories`). A recall question and an extracted statement are read by the
same rules, and neither package climbs into the other for them.
"""
