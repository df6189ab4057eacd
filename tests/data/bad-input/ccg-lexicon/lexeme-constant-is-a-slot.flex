lexeme 0.5 texas :- #0
