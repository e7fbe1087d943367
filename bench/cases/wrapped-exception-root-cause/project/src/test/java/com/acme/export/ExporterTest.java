package com.acme.export;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class ExporterTest {
    private final Exporter exporter = new Exporter();

    @Test
    void quotesCellsWithSeparators() {
        assertEquals("name,quantity,note\npen,2,\"blue, fine\"\n", exporter.export(List.of(new Item("pen", 2, "blue, fine"))));
    }

    @Test
    void anItemWithoutANoteHasAnEmptyCell() {
        assertEquals("name,quantity,note\npen,2,\n", exporter.export(List.of(new Item("pen", 2, null))));
    }
}
