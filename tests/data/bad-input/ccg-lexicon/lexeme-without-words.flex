lexeme 0.5 :- texas:s
