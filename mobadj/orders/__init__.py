"""Orders: the value types, the Lark grammar and the parser with friendly errors."""
