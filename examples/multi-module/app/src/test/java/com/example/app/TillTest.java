package com.example.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.example.core.Money;
import org.junit.jupiter.api.Test;

class TillTest {
    @Test
    void totalsRungAmounts() {
        Till till = new Till();
        till.ring(199);
        till.ring(1);
        assertEquals(new Money(200), till.total());
    }
}
