package io.jdbcrepl;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import com.tngtech.archunit.core.domain.JavaClass;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

class ArchitectureTest {
    static final JavaClasses MAIN = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.jdbcrepl");

    @Test
    void noCycles() {
        slices().assignedFrom(new SliceAssignment() {
            public SliceIdentifier getIdentifierOf(JavaClass c) { return SliceIdentifier.of(c.getPackageName()); }
            public String getDescription() { return "packages"; }
        }).should().beFreeOfCycles().check(MAIN);
    }
}
