package io.jdbcrepl.mview;

import java.util.ArrayList;
import java.util.List;

/**
 * An SQL condition that matches rows whose {@code columns} equal one of the tuples, NULL matching
 * NULL: {@code c IN (?, ?)} for one column, {@code (a = ? AND b IS NULL) OR …} for several.
 */
public record KeyMatch(String sql, List<Object> parameters) {

    /** {@code columns} as they appear in SQL (quoted); each tuple has one value per column. */
    public static KeyMatch of(List<String> columns, List<Object[]> tuples) {
        List<Object> params = new ArrayList<>();
        if (columns.size() == 1) {
            String c = columns.get(0);
            boolean nullSeen = false;
            List<String> marks = new ArrayList<>();
            for (Object[] t : tuples) {
                if (t[0] == null) {
                    nullSeen = true;
                } else {
                    marks.add("?");
                    params.add(t[0]);
                }
            }
            List<String> parts = new ArrayList<>();
            if (!marks.isEmpty()) parts.add(c + " IN (" + String.join(", ", marks) + ")");
            if (nullSeen) parts.add(c + " IS NULL");
            return new KeyMatch(parts.isEmpty() ? "1 = 0" : String.join(" OR ", parts), params);
        }
        List<String> ors = new ArrayList<>();
        for (Object[] t : tuples) {
            List<String> ands = new ArrayList<>();
            for (int i = 0; i < columns.size(); i++) {
                if (t[i] == null) {
                    ands.add(columns.get(i) + " IS NULL");
                } else {
                    ands.add(columns.get(i) + " = ?");
                    params.add(t[i]);
                }
            }
            ors.add("(" + String.join(" AND ", ands) + ")");
        }
        return new KeyMatch(ors.isEmpty() ? "1 = 0" : String.join(" OR ", ors), params);
    }
}
