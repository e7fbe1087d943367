package com.acme.json;

/** Shared behaviour of readers that turn one JSON scalar into a Java value. */
public abstract class StdScalarReader<T> {
    private final Class<T> type;

    protected StdScalarReader(Class<T> type) {
        this.type = type;
    }

    public Class<T> handledType() {
        return type;
    }

    public abstract T read(String text, ReadContext ctxt);

    protected Object _fromEmptyString(ReadContext ctxt) {
        return ctxt.emptyAsNull() ? null : getEmptyValue();
    }

    protected Object _fromNullToken(ReadContext ctxt) {
        return null;
    }

    protected Object getEmptyValue() {
        return null;
    }

    private String describe() {
        return "reader of " + type.getSimpleName();
    }
}
