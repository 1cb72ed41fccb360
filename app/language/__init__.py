"""Language: the analysis of text that extraction and recall share.

Time phrases (`temporal`), base forms of irregular verbs (`lemmas`), categories and their instances
(`categories`) and the word lists the rules decide with (`lexicon`) live here, so a recall question and an
extracted statement are read by the same rules, and neither package climbs into the other for them.
"""
