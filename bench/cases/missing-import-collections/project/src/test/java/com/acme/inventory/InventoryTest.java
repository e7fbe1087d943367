package com.acme.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class InventoryTest {

    @Test
    void countsItems() {
        assertEquals(2, countOf("a", "b"));
    }

    private static int countOf(String... names) {
        Inventory inventory = new Inventory();
        for (String name : names) inventory.add(name);
        return inventory.count();
    }
}
