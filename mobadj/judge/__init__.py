"""The email judge: store, command language, mail in and out, deadlines."""
