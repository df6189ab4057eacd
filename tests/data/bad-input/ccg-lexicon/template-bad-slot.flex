template 0.1 NP : #a
