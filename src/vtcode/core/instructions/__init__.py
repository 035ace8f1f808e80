"""The pure half of the project-instruction pipeline (SPEC section 5): text, globs, budget, rendering.

Discovery and reading (the I/O) live in `vtcode.instructions`; these modules only compute.
"""
