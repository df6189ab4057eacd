texas :- NP : #0
