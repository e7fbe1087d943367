package com.acme.names;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class NamesTest {
    @Test
    void sortsTheNames() {
        Names names = new Names();
        names.add("Ute");
        names.add("Ana");
        assertEquals(List.of("Ana", "Ute"), names.sorted());
    }
}
