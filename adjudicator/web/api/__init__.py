"""The JSON endpoints: one blueprint module each (ruling, play, knowledge, openapi)."""
