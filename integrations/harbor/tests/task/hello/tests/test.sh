#!/bin/bash
# Reward 1 when the agent wrote hello into /app/hello.txt, else 0.
if grep -qx hello /app/hello.txt 2>/dev/null; then echo 1 > /logs/verifier/reward.txt; else echo 0 > /logs/verifier/reward.txt; fi
