package com.acme.orders;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class OrderServiceTest {
    @Test
    void goldCustomersPayFifteenPercentLess() {
        OrderService service = new OrderService("gold");
        assertEquals(8500, service.total(List.of(6000L, 4000L)));
    }

    @Test
    void otherCustomersPayTheFullPrice() {
        assertEquals(10000, new OrderService("bronze").total(List.of(6000L, 4000L)));
    }
}
