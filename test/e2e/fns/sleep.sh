#!/bin/sh
# A function that never finishes in time.
sleep 30
