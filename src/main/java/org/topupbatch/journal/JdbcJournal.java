package org.topupbatch.journal;

import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import javax.sql.DataSource;
import org.topupbatch.provider.CallLog;
import org.topupbatch.provider.PriceListKeeper;

/**
 * The journal over plain JDBC: one repository per role on one pool, opened and closed together.
 * The work is in the repositories ({@link JdbcIntakeJournal}, {@link JdbcSubmissionJournal},
 * {@link JdbcTrackingJournal}, {@link JdbcReportingJournal}, {@link JdbcStatusJournal},
 * {@link JdbcCallLog}, {@link JdbcProductOutages}, {@link JdbcBatchControl} and the others); this
 * class only owns the pool, builds them on it and hands each out by its role.
 */
public final class JdbcJournal implements Journal {

    private final AutoCloseable owned;
    private final RowFinalRelay rowFinal = new RowFinalRelay();
    private final JdbcIntakeJournal intake;
    private final JdbcSubmissionJournal submission;
    private final JdbcTrackingJournal tracking;
    private final JdbcReportingJournal reporting;
    private final JdbcStatusJournal status;
    private final JdbcCallLog callLog;
    private final JdbcProductOutages outages;
    private final JdbcBatchControl control;
    private final JdbcReconcileJournal reconciliations;
    private final JdbcRepeatWaits repeatWaits;
    private final JdbcPriceLists priceLists;
    private final JdbcOutbox outbox;
    private final JdbcCustomerVouchers vouchers;

    /** A journal on a pool someone else owns and closes. */
    public JdbcJournal(DataSource dataSource, Clock clock) {
        this(dataSource, clock, null);
    }

    private JdbcJournal(DataSource dataSource, Clock clock, AutoCloseable owned) {
        this.owned = owned;
        JdbcSupport jdbc = new JdbcSupport(dataSource);
        this.vouchers = new JdbcCustomerVouchers(jdbc);
        JdbcRowOutcomes outcomes = new JdbcRowOutcomes(jdbc, clock, rowFinal, vouchers);
        this.intake = new JdbcIntakeJournal(jdbc, clock, rowFinal);
        this.submission = new JdbcSubmissionJournal(jdbc, clock, rowFinal, outcomes);
        this.tracking = new JdbcTrackingJournal(jdbc, outcomes);
        this.reporting = new JdbcReportingJournal(jdbc, vouchers);
        this.status = new JdbcStatusJournal(jdbc);
        this.callLog = new JdbcCallLog(jdbc);
        this.outages = new JdbcProductOutages(jdbc, clock, rowFinal);
        this.control = new JdbcBatchControl(jdbc, clock, rowFinal);
        this.reconciliations = new JdbcReconcileJournal(jdbc);
        this.repeatWaits = new JdbcRepeatWaits(jdbc, clock, rowFinal);
        this.priceLists = new JdbcPriceLists(jdbc);
        this.outbox = new JdbcOutbox(jdbc);
    }

    /**
     * Opens the journal the settings point at (see {@link JournalDataSource#open}); closing
     * the journal closes its pool.
     */
    public static JdbcJournal open(Path dataDir, String jdbcUrl, String user, String password) {
        return open(dataDir, jdbcUrl, user, password, Clock.systemUTC());
    }

    /** As {@link #open(Path, String, String, String)}, with the clock that stamps created/updated times. */
    public static JdbcJournal open(Path dataDir, String jdbcUrl, String user, String password, Clock clock) {
        HikariDataSource pool = JournalDataSource.open(dataDir, jdbcUrl, user, password);
        return new JdbcJournal(pool, clock, pool);
    }

    /**
     * Opens the journal for a command that only reads it ({@code status}, {@code report}): beside a
     * running service, without its instance lock (see {@link JournalDataSource#openForReading}).
     */
    public static JdbcJournal openForReading(Path dataDir, String jdbcUrl, String user, String password) {
        HikariDataSource pool = JournalDataSource.openForReading(dataDir, jdbcUrl, user, password);
        return new JdbcJournal(pool, Clock.systemUTC(), pool);
    }

    /** Who is told, after each commit that made rows of a batch final, that its report may be due. */
    public void onRowsFinal(RowFinalListener listener) {
        rowFinal.set(listener);
    }

    /** Which customers a success sends the voucher to (docs/customer-messages.md); none until set. */
    public void reachCustomers(CustomerChannels channels) {
        vouchers.reach(channels);
    }

    /** Who served the journal's batches ({@code provider} of the batch table: {@code sandbox} or a host), each once. */
    public List<String> providersServed() {
        return reporting.providersServed();
    }

    @Override
    public IntakeJournal intake() {
        return intake;
    }

    @Override
    public SubmissionJournal submission() {
        return submission;
    }

    @Override
    public TrackingJournal tracking() {
        return tracking;
    }

    @Override
    public ReportingJournal reporting() {
        return reporting;
    }

    @Override
    public StatusJournal status() {
        return status;
    }

    @Override
    public CallLog callLog() {
        return callLog;
    }

    @Override
    public Outbox outbox() {
        return outbox;
    }

    @Override
    public ProductOutages outages() {
        return outages;
    }

    @Override
    public BatchControl control() {
        return control;
    }

    @Override
    public ReconcileJournal reconciliations() {
        return reconciliations;
    }

    @Override
    public RepeatWaits repeatWaits() {
        return repeatWaits;
    }

    @Override
    public CallLog callLogOf(String account) {
        return callLog.forAccount(account);
    }

    @Override
    public PriceListKeeper priceListOf(String account, String provider) {
        return priceLists.of(account, provider);
    }

    @Override
    public void close() {
        if (owned != null) {
            try {
                owned.close();
            } catch (Exception e) {
                throw new JournalException("cannot close the journal database", e);
            }
        }
    }
}
