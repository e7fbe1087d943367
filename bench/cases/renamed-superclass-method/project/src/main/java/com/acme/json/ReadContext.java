package com.acme.json;

/** What a reader knows about the document it reads. */
public class ReadContext {
    private final boolean emptyAsNull;

    public ReadContext(boolean emptyAsNull) {
        this.emptyAsNull = emptyAsNull;
    }

    public boolean emptyAsNull() {
        return emptyAsNull;
    }
}
