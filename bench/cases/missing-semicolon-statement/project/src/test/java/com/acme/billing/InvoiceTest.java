package com.acme.billing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class InvoiceTest {

    @Test
    void addsTax() {
        assertEquals(119, new Invoice().total(100, 19));
    }
}
