"""Pure data shared by every layer: messages, model stream events, thread events, operations, errors."""
