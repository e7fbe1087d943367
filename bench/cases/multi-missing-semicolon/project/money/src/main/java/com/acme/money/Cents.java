package com.acme.money;

public final class Cents {
    private Cents() {}

    public static String format(int cents) {
        return String.format("%d.%02d", cents / 100, cents % 100);
    }
}
