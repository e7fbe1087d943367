package com.acme.retry;

/** Retry delays: 100 ms, doubled after every failed attempt. */
public final class Backoff {

    private Backoff() {
    }

    public static long delayMillis(int attempt) {
        if (attempt < 1) {
            throw new IllegalArgumentException("attempts count from 1: " + attempt);
        }
        return 100L * attempt;
    }
}
