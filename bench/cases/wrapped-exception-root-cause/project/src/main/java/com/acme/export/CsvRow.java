package com.acme.export;

import java.util.List;
import java.util.stream.Collectors;

/** One CSV line per item; cells are quoted when they need it. */
public class CsvRow {
    private final char separator;

    public CsvRow(char separator) {
        this.separator = separator;
    }

    public String render(Item item) {
        List<String> cells = List.of(item.name(), Integer.toString(item.quantity()), cell(item.note()));
        return cells.stream().collect(Collectors.joining(String.valueOf(separator)));
    }

    String cell(String value) {
        String escaped = value.replace("\"", "\"\"");
        if (escaped.indexOf(separator) >= 0 || escaped.contains("\"")) {
            return '"' + escaped + '"';
        }
        return escaped;
    }
}
