package io.jdbcrepl.ddl;

import io.jdbcrepl.ddl.TableDdl;
import io.jdbcrepl.ddl.TableDefinition;
import io.jdbcrepl.sql.SqlToken;

import java.util.List;

/**
 * A DDL statement as {@link DdlReader} reads it, vendor-neutral: names are the source's stored
 * names, types portable ({@link SourceType}), expressions the source's tokens.
 */
sealed interface Ddl {

    /** A table, with its schema when the statement names one. */
    record TableName(String schema, String table) {
    }

    /**
     * A column type as written on the source ({@code text}, for messages), as the join reads a column
     * ({@link TableDefinition.Column}, whose {@link TableDdl#mappedType} the target writes), and the
     * identity it implies ({@code serial}).
     */
    record SourceType(String text, TableDefinition.Column column, TableDdl.Identity identity) {
    }

    /** A column's default: a literal (tokens of one value), NULL, or the current date or time. */
    sealed interface Default {
    }

    record Literal(List<SqlToken> tokens) implements Default {
    }

    record CurrentTime() implements Default {
    }

    record NullDefault() implements Default {
    }

    /**
     * A column definition. {@code notNull} and {@code defaultValue} are null when the statement does
     * not say; {@code inline} the constraints written with the column (PRIMARY KEY, UNIQUE,
     * REFERENCES, CHECK), on its name alone.
     */
    record Column(String name, SourceType type, Boolean notNull, Default defaultValue, TableDdl.Identity identity,
            List<Constraint> inline) {
    }

    enum ConstraintKind { PRIMARY_KEY, UNIQUE, FOREIGN_KEY, CHECK }

    /**
     * A table constraint. {@code name} null when unnamed; {@code check} the tokens inside a CHECK's
     * parentheses; {@code onDelete}/{@code onUpdate} a foreign key's actions as written, upper case, or null.
     */
    record Constraint(String name, ConstraintKind kind, List<String> columns, TableName references, List<String> referencedColumns,
            String onDelete, String onUpdate, List<SqlToken> check) {
    }

    record CreateTable(TableName table, boolean ifNotExists, List<Column> columns, List<Constraint> constraints) implements Ddl {
    }

    record AlterTable(TableName table, boolean ifExists, List<Action> actions) implements Ddl {
    }

    record DropTable(List<TableName> tables, boolean ifExists, boolean cascade) implements Ddl {
    }

    /** MySQL's RENAME TABLE a TO b, or ALTER TABLE a RENAME TO b. */
    record RenameTable(TableName from, TableName to) implements Ddl {
    }

    record CreateIndex(String name, TableName table, boolean unique, boolean ifNotExists, List<String> columns,
            List<Boolean> descending) implements Ddl {
    }

    /** {@code table} null when the statement does not name it (PostgreSQL, H2). */
    record DropIndex(String name, TableName table, boolean ifExists) implements Ddl {
    }

    record Truncate(List<TableName> tables, boolean cascade, boolean restartIdentity) implements Ddl {
    }

    /** One change of an ALTER TABLE. */
    sealed interface Action {
    }

    record AddColumn(Column column, boolean ifNotExists) implements Action {
    }

    record DropColumn(String name, boolean ifExists) implements Action {
    }

    record RenameColumn(String from, String to) implements Action {
    }

    /** SET DEFAULT, or DROP DEFAULT when {@code value} is null. */
    record SetDefault(String column, Default value) implements Action {
    }

    record SetNotNull(String column, boolean notNull) implements Action {
    }

    /** PostgreSQL's ALTER COLUMN TYPE, H2's SET DATA TYPE: the type alone. */
    record SetType(String column, SourceType type) implements Action {
    }

    /** MySQL's MODIFY and CHANGE, H2's ALTER COLUMN c definition: the whole column again, perhaps renamed. */
    record Redefine(String column, Column definition) implements Action {
    }

    record AddConstraint(Constraint constraint) implements Action {
    }

    /** DROP CONSTRAINT (kind null), MySQL's DROP FOREIGN KEY / DROP CHECK, or DROP PRIMARY KEY (name null). */
    record DropConstraint(String name, ConstraintKind kind) implements Action {
    }

    record RenameTo(TableName name) implements Action {
    }
}
