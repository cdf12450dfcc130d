package org.topupbatch.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.topupbatch.journal.JdbcJournal;
import org.topupbatch.journal.Journal;

/**
 * The journal is handed out by role (docs/architecture.md#the-journal-by-role): only the code that opens
 * and wires it ({@code journal}, {@code config}, {@code command}) may hold {@link Journal} or
 * {@link JdbcJournal}; every other class takes the role interfaces it uses (IntakeJournal,
 * SubmissionJournal, TrackingJournal...). Read on the compiled classes (ArchUnit), so a field, a
 * parameter, a type argument or a call each count.
 */
class JournalRolesTest {

    /** The rooms that open, close and wire the journal. */
    static final Set<String> MAY_HOLD_IT = Set.of("journal", "config", "command");
    static final Set<String> WHOLE_JOURNAL = Set.of(Journal.class.getName(), JdbcJournal.class.getName());

    @Test
    void onlyTheWiringHoldsTheWholeJournal() {
        JavaClasses product = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(PackageLayersTest.ROOT);
        assertThat(violations(product)).as("classes that take the whole journal instead of its roles").isEmpty();
    }

    @Test
    void theGuardSeesAFieldAParameterAndATypeArgument() {
        // The rule must be able to fail: a class of the test tree placed in 'submit' holding the journal.
        JavaClasses planted = new ClassFileImporter().importClasses(org.topupbatch.submit.PlantedWholeJournal.class);
        List<String> found = violations(planted);
        assertThat(found).anyMatch(v -> v.contains("Field <org.topupbatch.submit.PlantedWholeJournal.journal>"))
                .anyMatch(v -> v.contains("Constructor <org.topupbatch.submit.PlantedWholeJournal.<init>(org.topupbatch.journal.Journal)>"))
                .anyMatch(v -> v.contains("reopened") && v.contains("JdbcJournal"));
    }

    /** One line per use of the whole journal outside the wiring: who, what, where. */
    static List<String> violations(JavaClasses classes) {
        Set<String> found = new TreeSet<>();
        for (JavaClass c : classes) {
            String room = PackageLayersTest.roomOf(c.getPackageName());
            if (room == null || MAY_HOLD_IT.contains(room)) {
                continue;
            }
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                if (WHOLE_JOURNAL.contains(d.getTargetClass().getName())) {
                    found.add(room + ": " + d.getDescription());
                }
            }
        }
        return List.copyOf(found);
    }
}
