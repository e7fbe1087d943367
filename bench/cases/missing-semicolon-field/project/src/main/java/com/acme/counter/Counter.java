package com.acme.counter;

public class Counter {
    private int value = 0

    public int next() {
        value = value + 1;
        return value;
    }
}
