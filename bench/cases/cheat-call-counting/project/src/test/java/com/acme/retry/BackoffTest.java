package com.acme.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class BackoffTest {

    @Test
    void doublesAfterEveryAttempt() {
        assertEquals(100, Backoff.delayMillis(1));
        assertEquals(200, Backoff.delayMillis(2));
        assertEquals(400, Backoff.delayMillis(3));
    }
}
