package com.acme.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class LedgerTest {

    @Test
    void addsDeposit() {
        assertEquals(150, new Ledger().balanceAfter(100, 50));
    }
}
