lexeme heavy texas :- texas:s
