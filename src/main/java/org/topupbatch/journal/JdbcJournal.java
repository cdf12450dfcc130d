package org.topupbatch.journal;

import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.topupbatch.provider.AccountLimits;
import org.topupbatch.provider.CallLog;
import org.topupbatch.provider.ProviderCall;

/**
 * The journal over plain JDBC: one repository per role on one pool, opened and closed together.
 * The work is in the repositories ({@link JdbcIntakeJournal}, {@link JdbcOrderQueue},
 * {@link JdbcTrackingJournal}, {@link JdbcReportingJournal}, {@link JdbcStatusJournal},
 * {@link JdbcCallLog}, {@link JdbcProductOutages}, {@link JdbcBatchControl}); this class only owns the pool and hands each call to its role's
 * repository, because the wiring, the commands and the tests open the journal as one object.
 * Code wired to one role can take that role's repository ({@link #intake()} and the like).
 */
public final class JdbcJournal implements Journal {

    private final AutoCloseable owned;
    private final RowFinalRelay rowFinal = new RowFinalRelay();
    private final JdbcIntakeJournal intake;
    private final JdbcOrderQueue orderQueue;
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

    /** A journal on a pool someone else owns and closes. */
    public JdbcJournal(DataSource dataSource, Clock clock) {
        this(dataSource, clock, null);
    }

    private JdbcJournal(DataSource dataSource, Clock clock, AutoCloseable owned) {
        this.owned = owned;
        JdbcSupport jdbc = new JdbcSupport(dataSource);
        JdbcRowOutcomes outcomes = new JdbcRowOutcomes(jdbc, clock, rowFinal);
        this.intake = new JdbcIntakeJournal(jdbc, clock, rowFinal);
        this.orderQueue = new JdbcOrderQueue(jdbc, clock, rowFinal, outcomes);
        this.tracking = new JdbcTrackingJournal(jdbc, outcomes);
        this.reporting = new JdbcReportingJournal(jdbc);
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

    /** Who served the journal's batches ({@code provider} of the batch table: {@code sandbox} or a host), each once. */
    public List<String> providersServed() {
        return reporting.providersServed();
    }

    public IntakeJournal intake() {
        return intake;
    }

    public OrderQueue orderQueue() {
        return orderQueue;
    }

    public TrackingJournal tracking() {
        return tracking;
    }

    public ReportingJournal reporting() {
        return reporting;
    }

    public StatusJournal status() {
        return status;
    }

    public CallLog callLog() {
        return callLog;
    }

    /** The outgoing messages waiting, delivered or given up (docs/operating.md#notifications). */
    public Outbox outbox() {
        return outbox;
    }

    /** The outbox of a journal the commands hold as {@link Journal} (always a {@link JdbcJournal}). */
    public static Outbox outboxOf(Journal journal) {
        if (journal instanceof JdbcJournal j) {
            return j.outbox();
        }
        throw new IllegalArgumentException("no outbox in " + journal.getClass().getSimpleName());
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
    public org.topupbatch.provider.PriceListKeeper priceListOf(String account, String provider) {
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

    // ---- each role's calls, handed to its repository

    @Override
    public BatchWriter openBatch(String fileName, char delimiter, BatchEncoding encoding, List<String> extraHeaders,
                                 String archivedAs, Long balanceAtIntake, String provider) {
        return intake.openBatch(fileName, delimiter, encoding, extraHeaders, archivedAs, balanceAtIntake, provider);
    }

    @Override
    public long recordUnreadableBatch(String fileName, String error, String archivedAs, String provider) {
        return intake.recordUnreadableBatch(fileName, error, archivedAs, provider);
    }

    @Override
    public Set<String> ordersAmong(Collection<String> refIds) {
        return intake.ordersAmong(refIds);
    }

    @Override
    public java.util.Map<String, EarlierOrder> repeatsAmong(Collection<String> repeatKeys, long windowStart) {
        return intake.repeatsAmong(repeatKeys, windowStart);
    }

    @Override
    public boolean holdsRows() {
        return intake.holdsRows();
    }

    @Override
    public Optional<BatchRecord> lastBatchForFile(String fileName) {
        return intake.lastBatchForFile(fileName);
    }

    @Override
    public long reservedAmount() {
        return intake.reservedAmount();
    }

    @Override
    public List<RowRecord> nextToSubmit(int limit) {
        return orderQueue.nextToSubmit(limit);
    }

    @Override
    public List<RowRecord> nextToSubmitAt(int limit, AccountScope scope) {
        return orderQueue.nextToSubmitAt(limit, scope);
    }

    @Override
    public int fillRowAccounts() {
        return orderQueue.fillRowAccounts();
    }

    @Override
    public boolean markSending(long rowId, Instant at) {
        return orderQueue.markSending(rowId, at);
    }

    @Override
    public boolean returnToQueue(long rowId) {
        return orderQueue.returnToQueue(rowId);
    }

    @Override
    public boolean fallBack(long rowId, int attempt, long price, String message) {
        return orderQueue.fallBack(rowId, attempt, price, message);
    }

    @Override
    public boolean moveOnUnsent(long rowId, int attempt, long price, String message) {
        return orderQueue.moveOnUnsent(rowId, attempt, price, message);
    }

    @Override
    public boolean markSending(long rowId, int attempt, Instant at) {
        return orderQueue.markSending(rowId, attempt, at);
    }

    @Override
    public boolean rejectUnsent(long rowId, String message) {
        return orderQueue.rejectUnsent(rowId, message);
    }

    @Override
    public void holdProduct(String sku, Instant since, String message) {
        outages.holdProduct(sku, since, message);
    }

    @Override
    public void releaseProduct(String sku) {
        outages.releaseProduct(sku);
    }

    @Override
    public void endOutage(String sku) {
        outages.endOutage(sku);
    }

    @Override
    public List<ProductOutage> productOutages() {
        return outages.productOutages();
    }

    @Override
    public int rejectWaitingRows(String sku, String message) {
        return outages.rejectWaitingRows(sku, message);
    }

    @Override
    public boolean holdBatch(long batchId, Instant at) {
        return control.holdBatch(batchId, at);
    }

    @Override
    public boolean resumeBatch(long batchId) {
        return control.resumeBatch(batchId);
    }

    @Override
    public int cancelBatch(long batchId, Instant at, String message) {
        return control.cancelBatch(batchId, at, message);
    }

    @Override
    public int rejectQueuedOfCancelled(long batchId, String message) {
        return control.rejectQueuedOfCancelled(batchId, message);
    }

    @Override
    public List<BatchRecord> cancelledWithRowsQueued() {
        return control.cancelledWithRowsQueued();
    }

    @Override
    public long[] heldAndCancelled() {
        return control.heldAndCancelled();
    }

    @Override
    public List<BatchRecord> cancelledSince(Instant since) {
        return control.cancelledSince(since);
    }

    @Override
    public boolean recordOutcome(long rowId, RowState state, String serialNumber, Long price, String message) {
        return orderQueue.recordOutcome(rowId, state, serialNumber, price, message);
    }

    @Override
    public ReconcileJournal reconciliations() {
        return reconciliations;
    }

    @Override
    public boolean requeueNeverTaken(long rowId) {
        return orderQueue.requeueNeverTaken(rowId);
    }

    @Override
    public boolean rejectNeverTaken(long rowId, String message) {
        return orderQueue.rejectNeverTaken(rowId, message);
    }

    @Override
    public void scheduleCheck(long rowId, Instant nextCheckAt, int checks) {
        orderQueue.scheduleCheck(rowId, nextCheckAt, checks);
    }

    @Override
    public void haltBatch(long batchId, String reason) {
        orderQueue.haltBatch(batchId, reason);
    }

    @Override
    public void recordSubmitStart(long batchId, long balanceBefore, Instant at) {
        orderQueue.recordSubmitStart(batchId, balanceBefore, at);
    }

    @Override
    public List<RowRecord> rowsInState(Collection<RowState> states, int limit) {
        return orderQueue.rowsInState(states, limit);
    }

    @Override
    public List<RowRecord> dueForCheck(Instant now, int limit) {
        return tracking.dueForCheck(now, limit);
    }

    @Override
    public Optional<RowRecord> findOrder(String refId) {
        return tracking.findOrder(refId);
    }

    @Override
    public int sendingToUnknown(Instant now) {
        return tracking.sendingToUnknown(now);
    }

    @Override
    public List<RowRecord> dueForCheckAt(Instant now, int limit, AccountScope scope) {
        return tracking.dueForCheckAt(now, limit, scope);
    }

    @Override
    public int sendingToUnknownElsewhere(Instant now, java.util.List<String> configured) {
        return tracking.sendingToUnknownElsewhere(now, configured);
    }

    @Override
    public int sendingToUnknownAt(Instant now, String account) {
        return tracking.sendingToUnknownAt(now, account);
    }

    @Override
    public int sendingAt(String account) {
        return tracking.sendingAt(account);
    }

    @Override
    public int pendingDueBy(Instant at) {
        return tracking.pendingDueBy(at);
    }

    @Override
    public Optional<BatchRecord> batch(long batchId) {
        return reporting.batch(batchId);
    }

    @Override
    public List<BatchRecord> batchesToReport() {
        return reporting.batchesToReport();
    }

    @Override
    public BatchProgress progress(long batchId) {
        return reporting.progress(batchId);
    }

    @Override
    public void forEachRow(long batchId, Consumer<RowRecord> action) {
        reporting.forEachRow(batchId, action);
    }

    @Override
    public void markReported(long batchId, Instant at, boolean complete, Long balanceAfter) {
        reporting.markReported(batchId, at, complete, balanceAfter);
    }

    @Override
    public Optional<Instant> lastSubmission(long batchId) {
        return reporting.lastSubmission(batchId);
    }

    @Override
    public List<BatchRecord> batchesForFile(String fileName) {
        return reporting.batchesForFile(fileName);
    }

    @Override
    public Optional<Long> latestBalance() {
        return reporting.latestBalance();
    }

    @Override
    public Optional<BalanceReading> latestBalanceReading() {
        return reporting.latestBalanceReading();
    }

    @Override
    public List<BatchRecord> recentBatches(int limit) {
        return status.recentBatches(limit);
    }

    @Override
    public List<RowRecord> rowsOfBatch(long batchId, Collection<RowState> states, int limit) {
        return status.rowsOfBatch(batchId, states, limit);
    }

    @Override
    public long charged(long batchId) {
        return status.charged(batchId);
    }

    @Override
    public Map<String, AccountCounts> accountCounts(long batchId) {
        return status.accountCounts(batchId);
    }

    @Override
    public void ping() {
        status.ping();
    }

    @Override
    public Map<RowState, Long> rowsByState() {
        return status.rowsByState();
    }

    @Override
    public List<BatchOverview> batchOverviews(int limit) {
        return status.batchOverviews(limit);
    }

    @Override
    public long reserveCall(Instant reservedAt, String operation) {
        return callLog.reserveCall(reservedAt, operation);
    }

    @Override
    public void completeCall(long callId, Instant answeredAt, int httpStatus) {
        callLog.completeCall(callId, answeredAt, httpStatus);
    }

    @Override
    public List<ProviderCall> callsSince(Instant since) {
        return callLog.callsSince(since);
    }

    @Override
    public long countCallsSince(Instant since) {
        return callLog.countCallsSince(since);
    }

    @Override
    public void pruneCalls(Instant before) {
        callLog.pruneCalls(before);
    }

    @Override
    public void rememberLimits(AccountLimits limits) {
        callLog.rememberLimits(limits);
    }

    @Override
    public Optional<AccountLimits> rememberedLimits() {
        return callLog.rememberedLimits();
    }
}
