package com.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class InventoryTest {
    @Test
    void countsAddedItems() {
        Inventory inventory = new Inventory();
        inventory.add("apple");
        inventory.add("pear");
        assertEquals(2, inventory.size());
    }
}
