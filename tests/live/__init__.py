"""The live push."""
