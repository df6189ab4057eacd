# a factored lexicon
entry 0.5 texas :- texas:s
