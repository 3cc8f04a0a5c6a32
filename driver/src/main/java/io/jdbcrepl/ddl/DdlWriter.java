package io.jdbcrepl.ddl;

import io.jdbcrepl.ddl.TableDdl;
import io.jdbcrepl.ddl.TableDdl.Identity;
import io.jdbcrepl.ddl.Ddl.Action;
import io.jdbcrepl.ddl.Ddl.Column;
import io.jdbcrepl.ddl.Ddl.Constraint;
import io.jdbcrepl.ddl.Ddl.ConstraintKind;
import io.jdbcrepl.ddl.Ddl.Default;
import io.jdbcrepl.ddl.Ddl.SourceType;
import io.jdbcrepl.ddl.Ddl.TableName;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.lcr.ValueType;
import io.jdbcrepl.sql.SqlToken;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Writes a {@link Ddl} read on {@code from} as {@code to} runs it: names as the join names them
 * ({@code TableCreation}: a name the source folded is folded as the target folds, any other keeps its
 * case), quoted for the target; types as the join maps them ({@link TableDdl#mappedType}).
 */
final class DdlWriter {

    private final Dialect from;
    private final Dialect to;
    private final DdlSyntax syntax;
    private final TableDdl types;

    DdlWriter(Dialect from, Dialect to) {
        this.from = from;
        this.to = to;
        this.syntax = to.part(DdlSyntax.class);
        this.types = to.part(TableDdl.class);
    }

    String write(Ddl ddl) throws UntranslatableDdlException {
        if (ddl instanceof Ddl.CreateTable c) return createTable(c);
        if (ddl instanceof Ddl.AlterTable a) return alterTable(a);
        if (ddl instanceof Ddl.DropTable d) {
            return "DROP TABLE " + (d.ifExists() ? "IF EXISTS " : "") + tables(d.tables())
                    + (d.cascade() && syntax.dropTableCascades() ? " CASCADE" : "");
        }
        if (ddl instanceof Ddl.RenameTable r) return renameTable(r);
        if (ddl instanceof Ddl.CreateIndex i) {
            return "CREATE " + (i.unique() ? "UNIQUE " : "") + "INDEX " + (i.ifNotExists() ? "IF NOT EXISTS " : "")
                    + name(i.name()) + " ON " + table(i.table()) + " (" + indexColumns(i) + ")";
        }
        if (ddl instanceof Ddl.DropIndex d) return dropIndex(d);
        return truncate((Ddl.Truncate) ddl);
    }

    // ---- CREATE TABLE

    private String createTable(Ddl.CreateTable c) throws UntranslatableDdlException {
        Set<String> indexed = new HashSet<>();
        List<Constraint> constraints = new ArrayList<>();
        for (Column column : c.columns()) {
            for (Constraint inline : column.inline()) {
                if (inline.kind() == ConstraintKind.FOREIGN_KEY) constraints.add(inline); // a table constraint on every database
            }
        }
        constraints.addAll(c.constraints());
        for (Column column : c.columns()) {
            if (column.inline().stream().anyMatch(k -> k.kind() != ConstraintKind.CHECK)) indexed.add(column.name());
        }
        for (Constraint k : constraints) indexed.addAll(k.columns());
        List<String> elements = new ArrayList<>();
        for (Column column : c.columns()) elements.add(column(column, indexed.contains(column.name()), false));
        for (Constraint k : constraints) elements.add(constraint(k));
        return "CREATE TABLE " + (c.ifNotExists() ? "IF NOT EXISTS " : "") + table(c.table()) + " (" + String.join(", ", elements)
                + ")" + syntax.tableOptions();
    }

    /** A column definition: name, type, identity, nullability, default, and its constraints (a foreign key only if {@code withReferences}). */
    private String column(Column c, boolean indexed, boolean withReferences) throws UntranslatableDdlException {
        StringBuilder sql = new StringBuilder(name(c.name())).append(' ').append(definition(c, indexed));
        for (Constraint k : c.inline()) {
            if (k.kind() == ConstraintKind.FOREIGN_KEY && !withReferences) continue;
            sql.append(' ').append(constraintName(k)).append(switch (k.kind()) {
                case PRIMARY_KEY -> "PRIMARY KEY";
                case UNIQUE -> "UNIQUE";
                case CHECK -> "CHECK (" + expression(k.check()) + ")";
                case FOREIGN_KEY -> references(k);
            });
        }
        return sql.toString();
    }

    /** Type, identity, nullability and default, without the name and constraints. */
    private String definition(Column c, boolean indexed) throws UntranslatableDdlException {
        StringBuilder sql = new StringBuilder(type(c.type(), indexed));
        if (c.identity() != Identity.NONE) sql.append(' ').append(types.identityClause(c.identity()));
        if (c.notNull() != null) sql.append(c.notNull() ? " NOT NULL" : " NULL");
        if (c.defaultValue() != null) sql.append(" DEFAULT ").append(defaultValue(c.defaultValue(), c.type(), c.name()));
        return sql.toString();
    }

    private String type(SourceType type, boolean indexed) throws UntranslatableDdlException {
        String mapped = types.mappedType(type.column().type(), type.column(), indexed);
        if (mapped == null) throw refuse("the type " + type.text() + " (no type of " + to.product() + " holds all its values)");
        return mapped;
    }

    /** {@code type} null: the column's type is not in the statement. */
    private String defaultValue(Default value, SourceType type, String column) throws UntranslatableDdlException {
        if (value instanceof Ddl.NullDefault) return "NULL";
        if (value instanceof Ddl.CurrentTime) {
            if (type == null || !ValueType.isTemporal(type.column().type())) {
                throw refuse("a DEFAULT of the current time for " + from.quote(column) + ", whose type "
                        + (type == null ? "the statement does not give" : type.text() + " is no date or time"));
            }
            return types.currentTime(type.column().type(), type.column().fraction(), true);
        }
        List<SqlToken> literal = ((Ddl.Literal) value).tokens();
        SqlToken first = literal.get(0);
        boolean bool = type != null && type.column().type() == ValueType.BOOLEAN;
        if (bool && literal.size() == 1 && first.kind() == SqlToken.Kind.NUMBER) {
            return first.text().equals("0") ? "FALSE" : "TRUE"; // MySQL writes a boolean's default as a number
        }
        return expression(literal);
    }

    private String constraint(Constraint k) throws UntranslatableDdlException {
        return constraintName(k) + switch (k.kind()) {
            case PRIMARY_KEY -> "PRIMARY KEY (" + names(k.columns()) + ")";
            case UNIQUE -> "UNIQUE (" + names(k.columns()) + ")";
            case CHECK -> "CHECK (" + expression(k.check()) + ")";
            case FOREIGN_KEY -> "FOREIGN KEY (" + names(k.columns()) + ") " + references(k);
        };
    }

    private String constraintName(Constraint k) {
        return k.name() == null ? "" : "CONSTRAINT " + name(k.name()) + " ";
    }

    private String references(Constraint k) throws UntranslatableDdlException {
        if (k.referencedColumns().isEmpty()) throw refuse("REFERENCES " + k.references().table() + " without the referenced columns");
        return "REFERENCES " + table(k.references()) + " (" + names(k.referencedColumns()) + ")"
                + (k.onDelete() == null ? "" : " ON DELETE " + k.onDelete()) + (k.onUpdate() == null ? "" : " ON UPDATE " + k.onUpdate());
    }

    /**
     * An expression (a CHECK's condition, a default literal) copied token by token: quoted names renamed
     * and quoted for the target, strings written as its literals, the rest as written (unquoted names fold
     * on the target as its columns were named).
     */
    private String expression(List<SqlToken> tokens) throws UntranslatableDdlException {
        StringBuilder sql = new StringBuilder();
        SqlToken previous = null;
        for (SqlToken t : tokens) {
            if (t.is(":")) throw refuse("the cast :: (CAST(… AS …) is what every database reads)");
            boolean operator = previous != null && previous.kind() == SqlToken.Kind.SYMBOL && t.kind() == SqlToken.Kind.SYMBOL
                    && previous.start() + previous.text().length() == t.start(); // >=, <>, ||
            boolean tight = previous == null || operator || previous.is("(") || previous.is(".") || t.is(")") || t.is(",") || t.is(".")
                    || t.is("(") && previous.kind() == SqlToken.Kind.WORD || previous.is("-") && tokens.size() == 2;
            if (!tight) sql.append(' ');
            sql.append(switch (t.kind()) {
                case QUOTED -> name(t.value());
                case STRING -> to.stringLiteral(t.value());
                default -> t.text();
            });
            previous = t;
        }
        return sql.toString();
    }

    // ---- ALTER TABLE

    private String alterTable(Ddl.AlterTable a) throws UntranslatableDdlException {
        List<String> changes = new ArrayList<>();
        Map<String, Column> whole = wholeColumns(a.actions());
        for (Action action : a.actions()) {
            if (action instanceof Ddl.AddColumn add) {
                boolean indexed = add.column().inline().stream().anyMatch(k -> k.kind() != ConstraintKind.CHECK);
                changes.add("ADD COLUMN " + (add.ifNotExists() ? "IF NOT EXISTS " : "")
                        + column(add.column(), indexed, syntax.inlineReferences()));
                if (!syntax.inlineReferences()) {
                    for (Constraint k : add.column().inline()) {
                        if (k.kind() == ConstraintKind.FOREIGN_KEY) changes.add("ADD " + constraint(k));
                    }
                }
            } else if (action instanceof Ddl.DropColumn d) {
                changes.add("DROP COLUMN " + (d.ifExists() ? "IF EXISTS " : "") + name(d.name()));
            } else if (action instanceof Ddl.RenameColumn r) {
                changes.add("RENAME COLUMN " + name(r.from()) + " TO " + name(r.to()));
            } else if (action instanceof Ddl.SetDefault d) {
                if (whole.containsKey(d.column())) continue;
                changes.add("ALTER COLUMN " + name(d.column()) + (d.value() == null ? " DROP DEFAULT"
                        : " SET DEFAULT " + defaultValue(d.value(), null, d.column())));
            } else if (action instanceof Ddl.SetNotNull n) {
                if (whole.containsKey(n.column())) continue;
                String change = syntax.setNotNull(name(n.column()), n.notNull());
                if (change == null) throw needsWholeColumn(n.column(), a.actions());
                changes.add(change);
            } else if (action instanceof Ddl.SetType t) {
                Column c = whole.get(t.column());
                String change = c != null ? redefine(t.column(), c) : syntax.setType(name(t.column()), type(t.type(), false));
                if (change == null) throw needsWholeColumn(t.column(), a.actions());
                changes.add(change);
            } else if (action instanceof Ddl.Redefine r) {
                String change = redefine(r.column(), r.definition());
                if (change != null) changes.add(change);
                else changes.addAll(decomposed(r));
            } else if (action instanceof Ddl.AddConstraint k) {
                changes.add("ADD " + constraint(k.constraint()));
            } else if (action instanceof Ddl.DropConstraint d) {
                if (d.name() != null) changes.add("DROP CONSTRAINT " + name(d.name()));
                else if (syntax.dropsPrimaryKeyUnnamed()) changes.add("DROP PRIMARY KEY");
                else throw refuse("DROP PRIMARY KEY (" + to.product() + " drops a primary key by its constraint's name,"
                        + " which the statement does not give)");
            } else if (action instanceof Ddl.RenameTo r) {
                changes.add("RENAME TO " + name(r.name().table()));
            }
        }
        boolean renames = changes.stream().anyMatch(c -> c.startsWith("RENAME "));
        String head = "ALTER TABLE " + (a.ifExists() ? "IF EXISTS " : "") + table(a.table()) + " ";
        if (changes.size() == 1) return head + changes.get(0);
        if (syntax.oneChangePerAlter()) {
            if (a.actions().stream().allMatch(x -> x instanceof Ddl.AddColumn add && !add.ifNotExists())) {
                return head + "ADD (" + changes.stream().map(c -> c.substring("ADD COLUMN ".length())).collect(Collectors.joining(", ")) + ")";
            }
            throw refuse("an ALTER TABLE of " + changes.size() + " changes (" + to.product() + " makes one per statement)");
        }
        if (renames && syntax.renamesAlone()) {
            throw refuse("a RENAME among other changes of one ALTER TABLE (" + to.product() + " renames in a statement of its own)");
        }
        return head + String.join(", ", changes);
    }

    /**
     * The columns whose type a change of this statement sets where the target needs the whole column for
     * it ({@link DdlSyntax#setType} null: MySQL's MODIFY): their type, nullability and default from the
     * statement's changes, when it gives all three; a column it gives only part of is refused when written.
     */
    private Map<String, Column> wholeColumns(List<Action> actions) {
        Map<String, Column> out = new LinkedHashMap<>();
        if (syntax.setType("c", "t") != null) return out;
        for (Action action : actions) {
            if (!(action instanceof Ddl.SetType t)) continue;
            Boolean notNull = null;
            Default value = null;
            boolean defaultSaid = false;
            for (Action other : actions) {
                if (other instanceof Ddl.SetNotNull n && n.column().equals(t.column())) notNull = n.notNull();
                if (other instanceof Ddl.SetDefault d && d.column().equals(t.column())) {
                    value = d.value();
                    defaultSaid = true;
                }
            }
            if (notNull != null && defaultSaid) {
                out.put(t.column(), new Column(t.column(), t.type(), notNull, value, Identity.NONE, List.of()));
            }
        }
        return out;
    }

    private UntranslatableDdlException needsWholeColumn(String column, List<Action> actions) {
        boolean typed = actions.stream().anyMatch(x -> x instanceof Ddl.SetType t && t.column().equals(column));
        return refuse("ALTER COLUMN " + from.quote(column) + " without its whole definition: " + to.product()
                + " changes a column's type or nullability only by giving all of it (MODIFY COLUMN), and the statement does not give "
                + (typed ? "its nullability and default (SET/DROP NOT NULL and SET/DROP DEFAULT in the same statement)" : "its type"));
    }

    /** The target's change that defines {@code column} again, or null when it has none. */
    private String redefine(String column, Column definition) throws UntranslatableDdlException {
        if (!definition.inline().isEmpty()) throw refuse("a constraint in the redefinition of " + from.quote(column));
        // unsaid nullability is nullable, as MODIFY means; but an identity is never null
        Boolean notNull = definition.identity() != Identity.NONE ? definition.notNull() : Boolean.valueOf(Boolean.TRUE.equals(definition.notNull()));
        Column said = new Column(definition.name(), definition.type(), notNull, definition.defaultValue(), definition.identity(),
                definition.inline());
        return syntax.redefine(name(column), name(definition.name()), definition(said, false));
    }

    /** MODIFY/CHANGE as separate changes: rename, type, nullability (unsaid: nullable) and default (unsaid: none). */
    private List<String> decomposed(Ddl.Redefine r) throws UntranslatableDdlException {
        Column c = r.definition();
        if (c.identity() != Identity.NONE) throw refuse("an identity (AUTO_INCREMENT) in the redefinition of " + from.quote(r.column()));
        List<String> changes = new ArrayList<>();
        String column = name(c.name());
        if (!r.column().equals(c.name())) changes.add("RENAME COLUMN " + name(r.column()) + " TO " + column);
        changes.add(syntax.setType(column, type(c.type(), false)));
        changes.add(syntax.setNotNull(column, Boolean.TRUE.equals(c.notNull())));
        changes.add("ALTER COLUMN " + column + (c.defaultValue() == null ? " DROP DEFAULT"
                : " SET DEFAULT " + defaultValue(c.defaultValue(), c.type(), c.name())));
        return changes;
    }

    // ---- the rest

    private String renameTable(Ddl.RenameTable r) throws UntranslatableDdlException {
        TableName target = r.to();
        if (target.schema() != null && !target.schema().equals(r.from().schema())) {
            throw refuse("a RENAME that moves " + r.from().table() + " to another schema");
        }
        return syntax.renameTable(table(r.from()), table(new TableName(r.from().schema(), target.table())), name(target.table()));
    }

    private String dropIndex(Ddl.DropIndex d) throws UntranslatableDdlException {
        String exists = d.ifExists() ? "IF EXISTS " : "";
        if (syntax.dropIndexNamesTable()) {
            if (d.table() == null) throw refuse("DROP INDEX " + d.name() + " without its table (" + to.product() + " names it: DROP INDEX … ON …)");
            return "DROP INDEX " + exists + name(d.name()) + " ON " + table(d.table());
        }
        // the index is in its table's schema
        String schema = d.table() == null || d.table().schema() == null ? "" : name(d.table().schema()) + ".";
        return "DROP INDEX " + exists + schema + name(d.name());
    }

    private String truncate(Ddl.Truncate t) throws UntranslatableDdlException {
        if (!syntax.truncatesWithCascade()) {
            if (t.cascade()) throw refuse("TRUNCATE … CASCADE (" + to.product() + " truncates no referencing tables)");
            if (t.tables().size() > 1) throw refuse("TRUNCATE of several tables (" + to.product() + " truncates one per statement)");
        }
        return "TRUNCATE TABLE " + tables(t.tables()) + (t.restartIdentity() && !syntax.truncateRestartsIdentity() ? " RESTART IDENTITY" : "")
                + (t.cascade() ? " CASCADE" : "");
    }

    private String indexColumns(Ddl.CreateIndex i) {
        List<String> out = new ArrayList<>();
        for (int k = 0; k < i.columns().size(); k++) out.add(name(i.columns().get(k)) + (i.descending().get(k) ? " DESC" : ""));
        return String.join(", ", out);
    }

    // ---- names

    /** A source's stored name as the target names it, quoted. */
    private String name(String stored) {
        return to.quote(from.fold(stored, false).equals(stored) ? to.fold(stored, false) : stored);
    }

    private String names(List<String> stored) {
        return stored.stream().map(this::name).collect(Collectors.joining(", "));
    }

    private String table(TableName t) {
        return (t.schema() == null ? "" : name(t.schema()) + ".") + name(t.table());
    }

    private String tables(List<TableName> tables) {
        return tables.stream().map(this::table).collect(Collectors.joining(", "));
    }

    private UntranslatableDdlException refuse(String part) {
        return new UntranslatableDdlException(part, from, to);
    }
}
