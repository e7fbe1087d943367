package com.acme.core;

public final class Words {
    private Words() {}

    public static String[] split(String text) {
        return text.trim().split("\\s+");
    }
}
