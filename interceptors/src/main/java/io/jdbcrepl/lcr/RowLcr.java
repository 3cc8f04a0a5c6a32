package io.jdbcrepl.lcr;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A row LCR (Oracle {@code LCR$_ROW_RECORD}): one changed row with its source, transaction,
 * position, old and new values, change vector and extra attributes. Values are mutable so that a
 * custom handler can change them before it executes the LCR.
 */
public final class RowLcr {

    private final String sourceDatabase;
    private final CommandType commandType;
    private final String objectOwner;
    private final String objectName;
    private final String transactionId;
    private final long position;
    private final Instant commitTime;
    private final byte[] tag;
    private final RowImage oldValues;
    private final RowImage newValues;
    private final List<String> changeVector;
    private final Map<String, String> extraAttributes;

    public RowLcr(String sourceDatabase, CommandType commandType, String objectOwner, String objectName,
            String transactionId, long position, Instant commitTime, byte[] tag, RowImage oldValues,
            RowImage newValues, List<String> changeVector, Map<String, String> extraAttributes) {
        this.sourceDatabase = sourceDatabase;
        this.commandType = Objects.requireNonNull(commandType, "commandType");
        this.objectOwner = objectOwner;
        this.objectName = Objects.requireNonNull(objectName, "objectName");
        this.transactionId = transactionId;
        this.position = position;
        this.commitTime = commitTime;
        this.tag = tag == null ? null : tag.clone();
        this.oldValues = oldValues == null ? new RowImage() : oldValues;
        this.newValues = newValues == null ? new RowImage() : newValues;
        this.changeVector = List.copyOf(changeVector == null ? List.of() : changeVector);
        this.extraAttributes = Collections.unmodifiableMap(new LinkedHashMap<>(
                extraAttributes == null ? Map.of() : extraAttributes));
    }

    public String sourceDatabase() {
        return sourceDatabase;
    }

    public CommandType commandType() {
        return commandType;
    }

    /** The schema. */
    public String objectOwner() {
        return objectOwner;
    }

    /** The table. */
    public String objectName() {
        return objectName;
    }

    public String transactionId() {
        return transactionId;
    }

    public long position() {
        return position;
    }

    public Instant commitTime() {
        return commitTime;
    }

    public byte[] tag() {
        return tag == null ? null : tag.clone();
    }

    /** Old values (mutable). */
    public RowImage oldValues() {
        return oldValues;
    }

    /** New values (mutable). */
    public RowImage newValues() {
        return newValues;
    }

    /** The columns the statement assigned, in column order. */
    public List<String> changeVector() {
        return changeVector;
    }

    public Map<String, String> extraAttributes() {
        return extraAttributes;
    }

    /** The LCR's value of a column: its new value, else its old value (SPEC 5.3), or null when it has neither. */
    public TypedValue value(String column) {
        TypedValue v = newValues.get(column);
        return v != null ? v : oldValues.get(column);
    }

    /** All columns the LCR has a value for, new values first. */
    public List<String> columns() {
        List<String> out = new ArrayList<>(newValues.asMap().keySet());
        for (String c : oldValues.asMap().keySet()) if (!out.contains(c)) out.add(c);
        return out;
    }

    @Override
    public String toString() {
        return commandType + " " + (objectOwner == null ? "" : objectOwner + ".") + objectName
                + " from " + sourceDatabase + " tx " + transactionId + " @" + position
                + " old=" + oldValues + " new=" + newValues;
    }
}
