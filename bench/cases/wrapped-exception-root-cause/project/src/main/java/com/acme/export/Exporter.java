package com.acme.export;

import java.util.List;

/** Writes a list of items as CSV, one line per item after a header. */
public class Exporter {
    private final CsvRow row = new CsvRow(',');

    public String export(List<Item> items) {
        StringBuilder out = new StringBuilder("name,quantity,note\n");
        for (Item item : items) {
            try {
                out.append(row.render(item)).append('\n');
            } catch (RuntimeException e) {
                throw new ExportException("cannot export item " + item.name(), e);
            }
        }
        return out.toString();
    }

    public int count(List<Item> items) {
        return items.size();
    }
}
