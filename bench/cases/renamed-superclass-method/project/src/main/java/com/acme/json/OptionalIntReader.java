package com.acme.json;

import java.util.OptionalInt;

public class OptionalIntReader extends BaseOptionalReader<OptionalInt> {
    public OptionalIntReader() {
        super(OptionalInt.class, OptionalInt.empty());
    }

    @Override
    public OptionalInt read(String text, ReadContext ctxt) {
        String trimmed = text.trim();
        if (trimmed.isEmpty()) {
            return (OptionalInt) _fromEmptyValue(ctxt);
        }
        return OptionalInt.of(Integer.parseInt(trimmed));
    }
}
