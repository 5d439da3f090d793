#!/bin/bash
# A command that keeps failing the same way until you fix its cause (create ready.flag).
sleep 0.3
if [ -f ready.flag ]; then echo "all good"; exit 0; fi
echo "Error: Cannot find module '@prisma/client'" >&2
echo "Require stack:" >&2
echo "- $PWD/src/db.js" >&2
exit 1
