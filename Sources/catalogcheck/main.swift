print("catalogcheck")
