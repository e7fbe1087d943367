package com.acme.account;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class UsernameTest {

    @Test
    void acceptsThreeLetters() {
        assertEquals(true, new Username().isValid("ada"));
    }

    @Test
    void refusesTwoLetters() {
        assertEquals(false, new Username().isValid("al"));
    }
}
