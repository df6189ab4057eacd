template 0.1 NP/ : #0
