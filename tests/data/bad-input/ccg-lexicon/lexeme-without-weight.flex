lexeme texas
