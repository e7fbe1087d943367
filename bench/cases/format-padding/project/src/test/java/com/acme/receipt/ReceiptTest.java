package com.acme.receipt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ReceiptTest {

    @Test
    void padsCents() {
        assertEquals("tea: 2.05", new Receipt().line("tea", 205));
    }
}
