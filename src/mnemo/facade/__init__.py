"""The parts of the Memory facade, one capability per module; api.Memory combines them."""
