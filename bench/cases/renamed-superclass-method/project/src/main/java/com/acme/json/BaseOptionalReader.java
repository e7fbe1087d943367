package com.acme.json;

/** Readers of the primitive Optional types share what "absent" means. */
public abstract class BaseOptionalReader<T> extends StdScalarReader<T> {
    private final T empty;

    protected BaseOptionalReader(Class<T> type, T empty) {
        super(type);
        this.empty = empty;
    }

    @Override
    protected Object getEmptyValue() {
        return empty;
    }
}
