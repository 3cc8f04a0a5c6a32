package io.jdbcrepl.capture;

import java.util.List;

/**
 * How one table is captured, from the {@code repl.*} configuration (resolved to stored column
 * names): supplemental logging, log groups and the maintained resolution timestamp.
 *
 * @param allOldValues       {@code repl.supplemental=ALL}
 * @param alwaysGroups       unconditional log groups: their old values are logged on every UPDATE
 * @param conditionalGroups  conditional log groups, and each prebuilt handler's column list:
 *                           their old values are logged when the UPDATE assigns one of their columns
 * @param timestampColumn    {@code repl.timestamp.<table>}, or null
 */
public record CaptureSettings(boolean allOldValues, List<List<String>> alwaysGroups,
        List<List<String>> conditionalGroups, String timestampColumn) {

    public static final CaptureSettings DEFAULT = new CaptureSettings(false, List.of(), List.of(), null);

    public CaptureSettings {
        alwaysGroups = alwaysGroups.stream().map(List::copyOf).toList();
        conditionalGroups = conditionalGroups.stream().map(List::copyOf).toList();
    }
}
