<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>mqdesk</name>
    <message>
        <source>MQDesk: a RocketMQ broker with a console attached</source>
        <translation>MQDesk：附带控制台的 RocketMQ Broker</translation>
    </message>
    <message>
        <source>broker.conf (RocketMQ keys)</source>
        <translation>broker.conf（RocketMQ 配置项）</translation>
    </message>
    <message>
        <source>file</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Store root directory</source>
        <translation>存储根目录</translation>
    </message>
    <message>
        <source>dir</source>
        <translation>目录</translation>
    </message>
    <message>
        <source>Embedded NameServer port (0: a free one)</source>
        <translation>内嵌 NameServer 端口（0：自动选择空闲端口）</translation>
    </message>
    <message>
        <source>port</source>
        <translation>端口</translation>
    </message>
    <message>
        <source>Broker port (0: a free one)</source>
        <translation>Broker 端口（0：自动选择空闲端口）</translation>
    </message>
    <message>
        <source>Interface language: en or zh_CN (default: the saved choice, else the system&apos;s)</source>
        <translation>界面语言：en 或 zh_CN（默认：已保存的选择，否则跟随系统）</translation>
    </message>
    <message>
        <source>language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>Open a store directory in the store explorer at start</source>
        <translation>启动时在存储浏览器中打开一个存储目录</translation>
    </message>
    <message>
        <source>Let the embedded broker listen on a non-loopback bindAddress without aclEnable (every host that reaches it can read and write every topic)</source>
        <translation>允许内嵌 Broker 在未开启 aclEnable 时监听非回环的 bindAddress（任何能访问到它的主机都可以读写所有 Topic）</translation>
    </message>
    <message>
        <source>RocketMQ 5 gRPC endpoint port (0: a free one, -1: none; a taken port falls back to a free one)</source>
        <translation>RocketMQ 5 gRPC 端点端口（0：任选空闲端口，-1：不启用；端口被占用时改用空闲端口）</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::AccessView</name>
    <message>
        <source>Find a user (Ctrl+F)</source>
        <translation>查找用户（Ctrl+F）</translation>
    </message>
    <message>
        <source>Fetch the users and policies again (F5)</source>
        <translation>重新读取用户和策略（F5）</translation>
    </message>
    <message>
        <source>users.csv</source>
        <translation>users.csv</translation>
    </message>
    <message>
        <source>&amp;New user…</source>
        <translation>新建用户(&amp;N)…</translation>
    </message>
    <message>
        <source>&amp;Edit user…</source>
        <translation>编辑用户(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;Delete user…</source>
        <translation>删除用户(&amp;D)…</translation>
    </message>
    <message>
        <source>Show this page to read the cluster&apos;s users.</source>
        <translation>打开此页面以读取集群的用户。</translation>
    </message>
    <message>
        <source>Policy entries of the selected user</source>
        <translation>所选用户的策略条目</translation>
    </message>
    <message>
        <source>New &amp;entry…</source>
        <translation>新建条目(&amp;E)…</translation>
    </message>
    <message>
        <source>Edit entry…</source>
        <translation>编辑条目…</translation>
    </message>
    <message>
        <source>Delete entry</source>
        <translation>删除条目</translation>
    </message>
    <message>
        <source>What may the selected user do?</source>
        <translation>所选用户可以做什么？</translation>
    </message>
    <message>
        <source>topic, group or cluster name</source>
        <translation>主题、消费者组或集群名称</translation>
    </message>
    <message>
        <source>from IP (optional)</source>
        <translation>来源 IP（可选）</translation>
    </message>
    <message>
        <source>Entries limited to source IPs apply only to requests from those addresses</source>
        <translation>限定了来源 IP 的条目只对来自这些地址的请求生效</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation>回答</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Decision</source>
        <translation>决定</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>No cluster is connected.</source>
        <translation>未连接任何集群。</translation>
    </message>
    <message>
        <source>Reading the users and policies…</source>
        <translation>正在读取用户和策略…</translation>
    </message>
    <message>
        <source>The users could not be read</source>
        <translation>无法读取用户</translation>
    </message>
    <message>
        <source>No users to show.</source>
        <translation>没有可显示的用户。</translation>
    </message>
    <message>
        <source>Read from %1, one of %2 masters; changes go to every master.</source>
        <translation>读取自 %1（共 %2 个主节点之一）；修改会发送到每个主节点。</translation>
    </message>
    <message>
        <source>Read from %1.</source>
        <translation>读取自 %1。</translation>
    </message>
    <message>
        <source>The cluster has no ACL 2.0 users yet: add one with New user…</source>
        <translation>集群还没有 ACL 2.0 用户：用“新建用户…”添加一个</translation>
    </message>
    <message>
        <source>This cluster has no ACL 2.0 (RocketMQ 5.3 or later with authenticationEnabled / authorizationEnabled); a 4.x cluster&apos;s ACL is its plain_acl.yml.</source>
        <translation>此集群没有 ACL 2.0（需 RocketMQ 5.3 或更高版本并开启 authenticationEnabled / authorizationEnabled）；4.x 集群的 ACL 是其 plain_acl.yml。</translation>
    </message>
    <message>
        <source>Reach the cluster as a Super user: set the connection&apos;s access key and secret key in Connections ▸ Credentials….</source>
        <translation>请以超级用户身份访问集群：在“连接 ▸ 凭据…”中设置该连接的 AccessKey 和 SecretKey。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1: %2. %3</source>
        <translation>%1：%2。%3</translation>
    </message>
    <message>
        <source>The change was refused</source>
        <translation>修改被拒绝</translation>
    </message>
    <message>
        <source>Created user %1.</source>
        <translation>已创建用户 %1。</translation>
    </message>
    <message>
        <source>Updated user %1.</source>
        <translation>已更新用户 %1。</translation>
    </message>
    <message>
        <source>Delete user</source>
        <translation>删除用户</translation>
    </message>
    <message>
        <source>Delete user %1 and the policies that name them from every master?</source>
        <translation>从每个主节点删除用户 %1 及其策略？</translation>
    </message>
    <message>
        <source>Delete %1</source>
        <translation>删除 %1</translation>
    </message>
    <message>
        <source>Deleted user %1.</source>
        <translation>已删除用户 %1。</translation>
    </message>
    <message>
        <source>Added %1 to the policies of %2.</source>
        <translation>已将 %1 添加到 %2 的策略。</translation>
    </message>
    <message>
        <source>Changed %1 in the policies of %2.</source>
        <translation>已修改 %2 策略中的 %1。</translation>
    </message>
    <message>
        <source>Removed %1 from the policies of %2.</source>
        <translation>已从 %2 的策略中移除 %1。</translation>
    </message>
    <message>
        <source>allowed</source>
        <translation>允许</translation>
    </message>
    <message>
        <source>denied</source>
        <translation>拒绝</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::BrokerHost</name>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>starting</source>
        <translation>启动中</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>stopping</source>
        <translation>停止中</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Recovering consume queues</source>
        <translation>正在恢复 ConsumeQueue</translation>
    </message>
    <message>
        <source>Checking the commit log</source>
        <translation>正在检查 CommitLog</translation>
    </message>
    <message>
        <source>Rebuilding consume queues and index</source>
        <translation>正在重建 ConsumeQueue 和索引</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::BrokerTableModel</name>
    <message>
        <source>%1 d %2 h</source>
        <translation>%1 天 %2 小时</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分钟</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 分钟 %2 秒</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>Broker</source>
        <translation>Broker</translation>
    </message>
    <message>
        <source>ID / role</source>
        <translation>ID / 角色</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>地址</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <source>Flush mode</source>
        <translation>刷盘方式</translation>
    </message>
    <message>
        <source>Put TPS</source>
        <translation>写入 TPS</translation>
    </message>
    <message>
        <source>Get TPS</source>
        <translation>消费 TPS</translation>
    </message>
    <message>
        <source>Disk use</source>
        <translation>磁盘使用率</translation>
    </message>
    <message>
        <source>Uptime</source>
        <translation>运行时长</translation>
    </message>
    <message>
        <source>Put today</source>
        <translation>今日写入</translation>
    </message>
    <message>
        <source>Get today</source>
        <translation>今日消费</translation>
    </message>
    <message>
        <source>%1 did not answer GET_BROKER_RUNTIME_INFO: %2</source>
        <translation>%1 未响应 GET_BROKER_RUNTIME_INFO：%2</translation>
    </message>
    <message>
        <source>0 (master)</source>
        <translation>0（主节点）</translation>
    </message>
    <message>
        <source>%1 (slave)</source>
        <translation>%1（从节点）</translation>
    </message>
    <message>
        <source>not answering: %1</source>
        <translation>无响应：%1</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1%</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1（共 %2）</translation>
    </message>
    <message>
        <source>Connections</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>This broker does not count its connections (a Java broker)</source>
        <translation>此 Broker 不统计其连接（Java Broker）</translation>
    </message>
    <message>
        <source>%1 remoting and %2 gRPC connections open.
Since start: %3 closed to make room for a new client at a limit, %4 refused, %5 closed for what the client did (did not read, never finished a frame, flooded the HTTP/2 layer).</source>
        <translation>%1 个 remoting 连接和 %2 个 gRPC 连接。
启动以来：%3 个因达到上限而为新客户端让出位置被关闭，%4 个被拒绝，%5 个因客户端行为被关闭（不读取、帧始终未完整、冲击 HTTP/2 层）。</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::BrokerWorker</name>
    <message>
        <source>port %1 was taken</source>
        <translation>端口 %1 已被占用</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::BrokersPanel</name>
    <message>
        <source>brokers.csv</source>
        <translation>brokers.csv</translation>
    </message>
    <message>
        <source>Brokers of the cluster at %1</source>
        <translation>NameServer %1 所在集群的 Broker</translation>
    </message>
    <message>
        <source>Brokers</source>
        <translation>Broker 列表</translation>
    </message>
    <message>
        <source>The cluster could not be read just now: %1 (showing the last answer)</source>
        <translation>刚才无法读取集群：%1（显示的是上一次的结果）</translation>
    </message>
    <message>
        <source>No cluster to show: the embedded broker is not running and no saved connection is picked.</source>
        <translation>没有可显示的集群：内嵌 Broker 未运行，也未选择已保存的连接。</translation>
    </message>
    <message>
        <source>Loading the brokers of %1…</source>
        <translation>正在加载 %1 的 Broker…</translation>
    </message>
    <message>
        <source>The NameServer %1 could not be read: %2
Check the address and that it runs, then press F5.</source>
        <translation>无法读取 NameServer %1：%2
请检查地址以及它是否在运行，然后按 F5。</translation>
    </message>
    <message>
        <source>No broker is registered with the NameServer %1 yet. Start one with namesrvAddr=%1.</source>
        <translation>尚无 Broker 注册到 NameServer %1。请以 namesrvAddr=%1 启动一个 Broker。</translation>
    </message>
    <message>
        <source>Read the brokers again (F5)</source>
        <translation>重新读取 Broker（F5）</translation>
    </message>
    <message>
        <source>%1 (%2) started from a config file&apos;s backup: %3</source>
        <translation>%1（%2）启动时使用了配置文件的备份：%3</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::CheckpointView</name>
    <message>
        <source>Field</source>
        <translation>字段</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Local time</source>
        <translation>本地时间</translation>
    </message>
    <message>
        <source>What it means</source>
        <translation>含义</translation>
    </message>
    <message>
        <source>checkpoint.csv</source>
        <translation>checkpoint.csv</translation>
    </message>
    <message>
        <source>Abort file and lock</source>
        <translation>abort 文件和 lock 文件</translation>
    </message>
    <message>
        <source>No checkpoint to show: %1/checkpoint: %2</source>
        <translation>没有可显示的检查点：%1/checkpoint：%2</translation>
    </message>
    <message>
        <source>Store time of the last commit-log record known to be flushed to disk.</source>
        <translation>已确认刷到磁盘的最后一条 CommitLog 记录的存储时间。</translation>
    </message>
    <message>
        <source>Store time of the last record whose consume-queue entry was flushed.</source>
        <translation>ConsumeQueue 条目已刷盘的最后一条记录的存储时间。</translation>
    </message>
    <message>
        <source>End time of the last completely filled index file that was flushed; after a crash, index files ending later are deleted and rebuilt.</source>
        <translation>最后一个已写满并刷盘的索引文件的结束时间；崩溃后，结束时间晚于它的索引文件会被删除并重建。</translation>
    </message>
    <message>
        <source>min(physic, logics) − 3 s: abnormal recovery starts from the newest commit-log file whose first record is older than this (the file before the one holding it), so nothing written after the last flush is trusted.</source>
        <translation>min(physic, logics) − 3 秒：异常恢复从第一条记录早于该时间的最新 CommitLog 文件开始（即包含该时间点的文件的前一个文件），因此上次刷盘之后写入的内容都不会被直接信任。</translation>
    </message>
    <message>
        <source>HA: the master&apos;s flushed commit-log offset as a slave last saw it (0 on a master).</source>
        <translation>HA：从节点最近一次看到的主节点已刷盘 CommitLog 偏移量（主节点上为 0）。</translation>
    </message>
    <message>
        <source>Commit-log confirm offset: set at recovery to the start of the last valid record.</source>
        <translation>CommitLog 确认偏移量：恢复时设为最后一条有效记录的起始位置。</translation>
    </message>
    <message>
        <source>abort: present — the broker did not stop cleanly; its next start runs abnormal recovery (from the checkpoint&apos;s minTimestamp)%1.</source>
        <translation>abort：存在 —— Broker 未正常停止；下次启动将执行异常恢复（从检查点的 minTimestamp 开始）%1。</translation>
    </message>
    <message>
        <source>, pid %1</source>
        <translation>，pid %1</translation>
    </message>
    <message>
        <source>abort: absent — the last stop was clean; the next start runs normal recovery.</source>
        <translation>abort：不存在 —— 上次为正常停止；下次启动将执行正常恢复。</translation>
    </message>
    <message>
        <source>lock: cannot be probed: %1</source>
        <translation>lock：无法探测：%1</translation>
    </message>
    <message>
        <source>lock: absent.</source>
        <translation>lock：不存在。</translation>
    </message>
    <message>
        <source>lock: present, not held — no broker runs on this store.</source>
        <translation>lock：存在，但未被持有 —— 没有 Broker 在此存储上运行。</translation>
    </message>
    <message>
        <source>lock: held by process %1 — a broker runs on this store; what is shown may change.</source>
        <translation>lock：被进程 %1 持有 —— 有 Broker 正在此存储上运行；显示的内容可能会变化。</translation>
    </message>
    <message>
        <source>lock: held by a running broker (its pid is not told by this kind of lock); what is shown may change.</source>
        <translation>lock：被正在运行的 Broker 持有（这类锁无法得知其 pid）；显示的内容可能会变化。</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::ChoosePortsDialog</name>
    <message>
        <source>Choose ports</source>
        <translation>选择端口</translation>
    </message>
    <message>
        <source>any free port</source>
        <translation>任意空闲端口</translation>
    </message>
    <message>
        <source>Start on these ports</source>
        <translation>使用这些端口启动</translation>
    </message>
    <message>
        <source>NameServer port:</source>
        <translation>NameServer 端口：</translation>
    </message>
    <message>
        <source>Broker port:</source>
        <translation>Broker 端口：</translation>
    </message>
    <message>
        <source>Clients connect to the NameServer port; the broker port is what the NameServer hands them for sending and pulling.</source>
        <translation>客户端连接 NameServer 端口；Broker 端口由 NameServer 告知客户端，用于发送和拉取消息。</translation>
    </message>
    <message>
        <source>The NameServer and the broker need two different ports.</source>
        <translation>NameServer 和 Broker 需要使用两个不同的端口。</translation>
    </message>
    <message>
        <source>Port %1 (NameServer) is in use on %2 — choose another port.</source>
        <translation>端口 %1（NameServer）在 %2 上已被占用 —— 请选择其他端口。</translation>
    </message>
    <message>
        <source>Port %1 (broker) is in use on %2 — choose another port.</source>
        <translation>端口 %1（Broker）在 %2 上已被占用 —— 请选择其他端口。</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::ClientInfoPane</name>
    <message>
        <source>Client ID</source>
        <translation>客户端 ID</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>地址</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <source>never</source>
        <translation>从未</translation>
    </message>
    <message>
        <source>Include thread stacks (Java clients)</source>
        <translation>包含线程栈（Java 客户端）</translation>
    </message>
    <message>
        <source>Refresh running info</source>
        <translation>刷新运行信息</translation>
    </message>
    <message>
        <source>What</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Thread stacks appear here when asked for (Java clients only).</source>
        <translation>勾选后在此显示线程栈（仅 Java 客户端）。</translation>
    </message>
    <message>
        <source>Message ID (offset ID)</source>
        <translation>消息 ID（偏移量 ID）</translation>
    </message>
    <message>
        <source>Topic</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>Consume directly</source>
        <translation>直接消费</translation>
    </message>
    <message>
        <source>The selected client runs its listener on this message now, as the Dashboard&apos;s resend does; the message stays where it is.</source>
        <translation>所选客户端立即用其监听器消费这条消息，与 Dashboard 的重发相同；消息本身保持不动。</translation>
    </message>
    <message>
        <source>Consume one message directly:</source>
        <translation>直接消费一条消息：</translation>
    </message>
    <message>
        <source>Select a group to see its clients.</source>
        <translation>选择一个消费组以查看其客户端。</translation>
    </message>
    <message>
        <source>No client of %1 is online.</source>
        <translation>%1 没有在线的客户端。</translation>
    </message>
    <message>
        <source>Asking %1 for its running info…</source>
        <translation>正在向 %1 询问运行信息…</translation>
    </message>
    <message>
        <source>%1 did not answer: %2</source>
        <translation>%1 未应答：%2</translation>
    </message>
    <message>
        <source>Running info of %1, as the client reports it.</source>
        <translation>%1 的运行信息（由客户端自身报告）。</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Consume type</source>
        <translation>消费类型</translation>
    </message>
    <message>
        <source>Message model</source>
        <translation>消息模式</translation>
    </message>
    <message>
        <source>Orderly</source>
        <translation>顺序消费</translation>
    </message>
    <message>
        <source>Starts from</source>
        <translation>起始位置</translation>
    </message>
    <message>
        <source>Consume threads</source>
        <translation>消费线程</translation>
    </message>
    <message>
        <source>%1 – %2 (pool now %3)</source>
        <translation>%1 – %2（当前线程池 %3）</translation>
    </message>
    <message>
        <source>Batch sizes (pull / consume)</source>
        <translation>批量大小（拉取 / 消费）</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>Max reconsume times</source>
        <translation>最大重试次数</translation>
    </message>
    <message>
        <source>Client version</source>
        <translation>客户端版本</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>启动时间</translation>
    </message>
    <message>
        <source>NameServer</source>
        <translation>NameServer</translation>
    </message>
    <message numerus="yes">
        <source>Subscriptions (%n)</source>
        <translation>
            <numerusform>订阅（%n）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Queues being processed (%n)</source>
        <translation>
            <numerusform>处理中的队列（%n）</numerusform>
        </translation>
    </message>
    <message>
        <source>committed %1, %2 cached (%3 MiB)%4%5</source>
        <translation>已提交 %1，缓存 %2 条（%3 MiB）%4%5</translation>
    </message>
    <message>
        <source>, locked</source>
        <translation>，已锁定</translation>
    </message>
    <message>
        <source>, dropped</source>
        <translation>，已丢弃</translation>
    </message>
    <message>
        <source>Last pull</source>
        <translation>最近拉取</translation>
    </message>
    <message>
        <source>Last consume</source>
        <translation>最近消费</translation>
    </message>
    <message>
        <source>Cached offsets</source>
        <translation>缓存偏移量</translation>
    </message>
    <message>
        <source>%1 – %2</source>
        <translation>%1 – %2</translation>
    </message>
    <message>
        <source>Rates per topic</source>
        <translation>各主题速率</translation>
    </message>
    <message>
        <source>pull %1/s (RT %2 ms), consumed %3/s (RT %4 ms), failed %5/s, %6 failed in the last hour</source>
        <translation>拉取 %1/秒（RT %2 毫秒），消费 %3/秒（RT %4 毫秒），失败 %5/秒，最近一小时失败 %6 条</translation>
    </message>
    <message numerus="yes">
        <source>All properties (%n)</source>
        <translation>
            <numerusform>全部属性（%n）</numerusform>
        </translation>
    </message>
    <message>
        <source>Select a client and give the message&apos;s offset ID and its topic.</source>
        <translation>请选择客户端，并填写消息的偏移量 ID 和主题。</translation>
    </message>
    <message>
        <source>%1 is consuming %2…</source>
        <translation>%1 正在消费 %2…</translation>
    </message>
    <message>
        <source>Not consumed: %1</source>
        <translation>未消费：%1</translation>
    </message>
    <message>
        <source>%1 consumed %2: %3 in %4 ms%5</source>
        <translation>%1 已消费 %2：%3，用时 %4 毫秒%5</translation>
    </message>
    <message numerus="yes">
        <source>Lite topics (%n, as the brokers hold them)</source>
        <translation>
            <numerusform>Lite 主题（%n 个，以 Broker 所记为准）</numerusform>
        </translation>
    </message>
    <message>
        <source>Last request</source>
        <translation>最近请求</translation>
    </message>
    <message>
        <source>Not listed</source>
        <translation>未列出</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::ClientSnippets</name>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::CommitLogView</name>
    <message>
        <source>records.csv</source>
        <translation>records.csv</translation>
    </message>
    <message>
        <source>commit-log offset or offset msgId</source>
        <translation>CommitLog 偏移量或偏移量 msgId</translation>
    </message>
    <message>
        <source>Go to offset</source>
        <translation>跳转到偏移量</translation>
    </message>
    <message>
        <source>Go to time</source>
        <translation>跳转到时间</translation>
    </message>
    <message>
        <source>From the start</source>
        <translation>从头开始</translation>
    </message>
    <message>
        <source>To the end</source>
        <translation>跳到末尾</translation>
    </message>
    <message>
        <source>topic</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>tag (A || B)</source>
        <translation>标签（A || B）</translation>
    </message>
    <message>
        <source>key or UNIQ_KEY</source>
        <translation>消息键或 UNIQ_KEY</translation>
    </message>
    <message>
        <source>Filter</source>
        <translation>过滤</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is neither a commit-log offset (a number of bytes, 0 or more) nor an offset message id (32 or 56 hex digits).</source>
        <translation>“%1”既不是 CommitLog 偏移量（字节数，不小于 0），也不是偏移量消息 ID（32 或 56 位十六进制数字）。</translation>
    </message>
    <message>
        <source>Looking for the first record stored at or after %1…</source>
        <translation>正在查找存储时间不早于 %1 的第一条记录…</translation>
    </message>
    <message>
        <source>starting…</source>
        <translation>准备中…</translation>
    </message>
    <message>
        <source>%1 of %2 scanned</source>
        <translation>已扫描 %1 / %2</translation>
    </message>
    <message numerus="yes">
        <source>%n matching record(s) from offset %1</source>
        <translation>
            <numerusform>从偏移量 %1 起 %n 条匹配的记录</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n record(s) from offset %1</source>
        <translation>
            <numerusform>从偏移量 %1 起 %n 条记录</numerusform>
        </translation>
    </message>
    <message>
        <source>searching…</source>
        <translation>正在搜索…</translation>
    </message>
    <message>
        <source>loading…</source>
        <translation>加载中…</translation>
    </message>
    <message>
        <source>search stopped at offset %1</source>
        <translation>搜索停止于偏移量 %1</translation>
    </message>
    <message>
        <source>end of the data at offset %1</source>
        <translation>数据在偏移量 %1 处结束</translation>
    </message>
    <message>
        <source>scroll for more</source>
        <translation>滚动以加载更多</translation>
    </message>
    <message>
        <source>No record matches the filter after offset %1.</source>
        <translation>偏移量 %1 之后没有匹配过滤条件的记录。</translation>
    </message>
    <message>
        <source>No records after offset %1.</source>
        <translation>偏移量 %1 之后没有记录。</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::ConfigFilesView</name>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>config-files.csv</source>
        <translation>config-files.csv</translation>
    </message>
    <message>
        <source>config.csv</source>
        <translation>config.csv</translation>
    </message>
    <message>
        <source>Table</source>
        <translation>表格</translation>
    </message>
    <message>
        <source>Raw text</source>
        <translation>原始文本</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>does not parse</source>
        <translation>无法解析</translation>
    </message>
    <message>
        <source>empty</source>
        <translation>空</translation>
    </message>
    <message>
        <source>text only</source>
        <translation>仅文本</translation>
    </message>
    <message>
        <source>No config files: %1/config holds none.</source>
        <translation>没有配置文件：%1/config 中没有任何配置文件。</translation>
    </message>
    <message>
        <source>No config file selected.</source>
        <translation>未选择配置文件。</translation>
    </message>
    <message>
        <source>%1 holds no JSON or properties to tabulate: see Raw text.</source>
        <translation>%1 中没有可列成表格的 JSON 或 properties 内容：请查看“原始文本”。</translation>
    </message>
    <message>
        <source>%1 does not parse: %2
The raw text shows where.</source>
        <translation>%1 无法解析：%2
原始文本中标出了出错位置。</translation>
    </message>
    <message numerus="yes">
        <source>(binary file, %n byte(s))</source>
        <translation>
            <numerusform>（二进制文件，%n 字节）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::ConfigTables</name>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>Topic</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>Read queues</source>
        <translation>读队列数</translation>
    </message>
    <message>
        <source>Write queues</source>
        <translation>写队列数</translation>
    </message>
    <message>
        <source>Perm</source>
        <translation>权限</translation>
    </message>
    <message>
        <source>Filter type</source>
        <translation>过滤类型</translation>
    </message>
    <message>
        <source>Sys flag</source>
        <translation>系统标志</translation>
    </message>
    <message>
        <source>Order</source>
        <translation>顺序</translation>
    </message>
    <message>
        <source>Attributes</source>
        <translation>属性</translation>
    </message>
    <message>
        <source>Group</source>
        <translation>消费者组</translation>
    </message>
    <message>
        <source>Consume enabled</source>
        <translation>允许消费</translation>
    </message>
    <message>
        <source>From min</source>
        <translation>从最小位点消费</translation>
    </message>
    <message>
        <source>Broadcast</source>
        <translation>广播</translation>
    </message>
    <message>
        <source>Orderly</source>
        <translation>顺序消费</translation>
    </message>
    <message>
        <source>Retry queues</source>
        <translation>重试队列数</translation>
    </message>
    <message>
        <source>Max retries</source>
        <translation>最大重试次数</translation>
    </message>
    <message>
        <source>Broker id</source>
        <translation>Broker ID</translation>
    </message>
    <message>
        <source>When slow, broker</source>
        <translation>消费缓慢时切换到的 Broker</translation>
    </message>
    <message>
        <source>Notify id changes</source>
        <translation>通知消费者 ID 变化</translation>
    </message>
    <message>
        <source>Retry policy</source>
        <translation>重试策略</translation>
    </message>
    <message>
        <source>Subscriptions</source>
        <translation>订阅关系</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>队列</translation>
    </message>
    <message>
        <source>Committed offset</source>
        <translation>已提交位点</translation>
    </message>
    <message>
        <source>Max offset</source>
        <translation>最大位点</translation>
    </message>
    <message>
        <source>Lag</source>
        <translation>堆积</translation>
    </message>
    <message>
        <source>no consume queue</source>
        <translation>无 ConsumeQueue</translation>
    </message>
    <message>
        <source>consumequeue/%1/%2 does not exist in this store: the max offset and the lag cannot be told</source>
        <translation>此存储中不存在 consumequeue/%1/%2：无法得知最大位点和堆积</translation>
    </message>
    <message>
        <source>Delay level</source>
        <translation>延迟级别</translation>
    </message>
    <message>
        <source>Offset</source>
        <translation>位点</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>(document)</source>
        <translation>（文档）</translation>
    </message>
    <message numerus="yes">
        <source>%n item(s)</source>
        <translation>
            <numerusform>%n 项</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n member(s)</source>
        <translation>
            <numerusform>%n 个成员</numerusform>
        </translation>
    </message>
    <message>
        <source>Data version: counter %1, written %2</source>
        <translation>数据版本：计数 %1，写入于 %2</translation>
    </message>
    <message>
        <source>Logical queue</source>
        <translation>逻辑队列</translation>
    </message>
    <message>
        <source>Gen</source>
        <translation>代</translation>
    </message>
    <message>
        <source>Broker</source>
        <translation>Broker</translation>
    </message>
    <message>
        <source>Physical queue</source>
        <translation>物理队列</translation>
    </message>
    <message>
        <source>Logical offset</source>
        <translation>逻辑位点</translation>
    </message>
    <message>
        <source>Physical start</source>
        <translation>物理起始位点</translation>
    </message>
    <message>
        <source>Physical end</source>
        <translation>物理结束位点</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation>纪元</translation>
    </message>
    <message>
        <source>Total queues</source>
        <translation>队列总数</translation>
    </message>
    <message>
        <source>earlier</source>
        <translation>早期</translation>
    </message>
    <message>
        <source>leader, here</source>
        <translation>主（本 Broker）</translation>
    </message>
    <message>
        <source>leader elsewhere</source>
        <translation>主（其他 Broker）</translation>
    </message>
    <message>
        <source>not decided</source>
        <translation>未确定</translation>
    </message>
    <message>
        <source>open</source>
        <translation>未结束</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::ConnectionBar</name>
    <message>
        <source>Connections</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>Cluster:</source>
        <translation>集群：</translation>
    </message>
    <message>
        <source>The cluster the views show (Ctrl+K)</source>
        <translation>视图显示的集群（Ctrl+K）</translation>
    </message>
    <message>
        <source>Connections…</source>
        <translation>连接…</translation>
    </message>
    <message>
        <source>Add, rename and remove saved clusters</source>
        <translation>添加、重命名和删除已保存的集群</translation>
    </message>
    <message>
        <source>&amp;Switch cluster</source>
        <translation>切换集群(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Manage connections…</source>
        <translation>管理连接(&amp;M)…</translation>
    </message>
    <message>
        <source>Embedded broker</source>
        <translation>内嵌 Broker</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Connecting to %1 (%2)…</source>
        <translation>正在连接 %1（%2）…</translation>
    </message>
    <message>
        <source>Cannot reach %1 at %2: %3. Check the address and that the NameServer is running, or pick another cluster (Ctrl+K).</source>
        <translation>无法连接 %1（%2）：%3。请检查地址以及 NameServer 是否在运行，或选择其他集群（Ctrl+K）。</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::ConnectionManager</name>
    <message>
        <source>&quot;%1&quot; has no port: write host:port, e.g. 10.0.0.5:9876</source>
        <translation>“%1”缺少端口：请写成 host:port，例如 10.0.0.5:9876</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a host name or IP address</source>
        <translation>“%1”不是有效的主机名或 IP 地址</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a port (1–65535)</source>
        <translation>“%1”不是有效的端口（1–65535）</translation>
    </message>
    <message>
        <source>Enter a NameServer address: host:port, several separated by &apos;;&apos;</source>
        <translation>请输入 NameServer 地址：host:port，多个地址用“;”分隔</translation>
    </message>
    <message>
        <source>Give the connection a name</source>
        <translation>请为连接命名</translation>
    </message>
    <message>
        <source>Embedded broker</source>
        <translation>内嵌 Broker</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is the embedded broker&apos;s name; choose another</source>
        <translation>“%1”是内嵌 Broker 的名称，请换一个</translation>
    </message>
    <message>
        <source>A connection named &quot;%1&quot; exists already</source>
        <translation>已存在名为“%1”的连接</translation>
    </message>
    <message>
        <source>The saved connections could not be read from %1; starting without them.</source>
        <translation>无法从 %1 读取已保存的连接；本次启动不加载它们。</translation>
    </message>
    <message>
        <source>it is not a name and an address</source>
        <translation>它不是“名称 + 地址”的形式</translation>
    </message>
    <message>
        <source>Saved connection %1 was skipped: %2.</source>
        <translation>已跳过保存的连接 %1：%2。</translation>
    </message>
    <message>
        <source>Give the access key that goes with the secret key</source>
        <translation>请填写与 SecretKey 配套的 AccessKey</translation>
    </message>
    <message>
        <source>An access key has no blanks</source>
        <translation>AccessKey 不能包含空格</translation>
    </message>
    <message>
        <source>Give the secret key that goes with the access key</source>
        <translation>请填写与 AccessKey 配套的 SecretKey</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::ConnectionsDialog</name>
    <message>
        <source>Connections</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>The embedded broker is always available. Add RocketMQ clusters by their NameServer address to look at them with the same views.</source>
        <translation>内嵌 Broker 始终可用。按 NameServer 地址添加 RocketMQ 集群后，即可用同样的视图查看它们。</translation>
    </message>
    <message>
        <source>Rename…</source>
        <translation>重命名…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Show in the views</source>
        <translation>在视图中显示</translation>
    </message>
    <message>
        <source>e.g. Staging</source>
        <translation>例如 Staging</translation>
    </message>
    <message>
        <source>host:port;host:port, e.g. 10.0.0.5:9876</source>
        <translation>host:port;host:port，例如 10.0.0.5:9876</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <source>NameServer:</source>
        <translation>NameServer：</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>Rename connection</source>
        <translation>重命名连接</translation>
    </message>
    <message>
        <source>Credentials…</source>
        <translation>凭据…</translation>
    </message>
    <message>
        <source>optional: for a cluster with ACL on</source>
        <translation>可选：用于开启了 ACL 的集群</translation>
    </message>
    <message>
        <source>kept in the desktop&apos;s keyring</source>
        <translation>保存在桌面密钥环中</translation>
    </message>
    <message>
        <source>Access key:</source>
        <translation>AccessKey：</translation>
    </message>
    <message>
        <source>Secret key:</source>
        <translation>SecretKey：</translation>
    </message>
    <message>
        <source>%1 — %2 — as %3</source>
        <translation>%1 — %2 — 以 %3 身份</translation>
    </message>
    <message>
        <source>Credentials of %1</source>
        <translation>%1 的凭据</translation>
    </message>
    <message>
        <source>RocketMQ&apos;s access key and secret key (ACL 1.0 accounts and ACL 2.0 users alike). The secret key is kept in the desktop&apos;s keyring, never in MQDesk&apos;s files. Leave the access key empty to send unsigned requests.</source>
        <translation>RocketMQ 的 AccessKey 和 SecretKey（ACL 1.0 账号与 ACL 2.0 用户通用）。SecretKey 保存在桌面密钥环中，绝不写入 MQDesk 的文件。AccessKey 留空则发送不签名的请求。</translation>
    </message>
    <message>
        <source>unchanged</source>
        <translation>不变</translation>
    </message>
    <message>
        <source>Connect with TLS (a cluster with tls.server.mode=enforcing); its certificate is trusted on first use</source>
        <translation>使用 TLS 连接（tls.server.mode=enforcing 的集群）；首次使用时信任其证书</translation>
    </message>
    <message>
        <source> — TLS, no certificate seen yet</source>
        <translation> — TLS，尚未见过证书</translation>
    </message>
    <message numerus="yes">
        <source> — TLS, %n server certificate(s) trusted</source>
        <translation>
            <numerusform> — TLS，已信任 %n 个服务器证书</numerusform>
        </translation>
    </message>
    <message>
        <source>Trusted on first use:
%1</source>
        <translation>首次使用时信任：
%1</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::ConsumeQueueModel</name>
    <message>
        <source>filler (before the queue&apos;s first entry)</source>
        <translation>填充（位于队列第一个条目之前）</translation>
    </message>
    <message>
        <source>invalid: the commit-log offset %1 is negative</source>
        <translation>无效：CommitLog 偏移量 %1 为负数</translation>
    </message>
    <message>
        <source>invalid: the size %1 is not positive</source>
        <translation>无效：大小 %1 不是正数</translation>
    </message>
    <message>
        <source>invalid</source>
        <translation>无效</translation>
    </message>
    <message>
        <source>valid</source>
        <translation>有效</translation>
    </message>
    <message>
        <source>Queue offset</source>
        <translation>队列位点</translation>
    </message>
    <message>
        <source>Commit-log offset</source>
        <translation>CommitLog 偏移量</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Tags code</source>
        <translation>Tags 哈希码</translation>
    </message>
    <message>
        <source>Valid</source>
        <translation>有效</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Position</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>消息数</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::ConsumeQueueView</name>
    <message>
        <source>consume-queue.csv</source>
        <translation>consume-queue.csv</translation>
    </message>
    <message>
        <source>Consume queue %1 / %2 from queue offset %3 — Enter or double-click an entry to open its record</source>
        <translation>ConsumeQueue %1 / %2，从队列位点 %3 起 —— 按 Enter 或双击条目可打开其记录</translation>
    </message>
    <message>
        <source>Queue offset %1 points at no record: %2.</source>
        <translation>队列位点 %1 未指向任何记录：%2。</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::CreateGroupDialog</name>
    <message>
        <source>Create consumer group</source>
        <translation>创建消费者组</translation>
    </message>
    <message>
        <source>e.g. GID_orders</source>
        <translation>例如 GID_orders</translation>
    </message>
    <message>
        <source>Consumers may consume</source>
        <translation>允许消费</translation>
    </message>
    <message>
        <source>Create</source>
        <translation>创建</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <source>&amp;Retry queues:</source>
        <translation>重试队列数(&amp;R)：</translation>
    </message>
    <message>
        <source>&amp;Max retries:</source>
        <translation>最大重试次数(&amp;M)：</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::ExplorerTable</name>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::ExplorerWindow</name>
    <message>
        <source>%1 — MQDesk Store Explorer</source>
        <translation>%1 — MQDesk 存储浏览器</translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation>正在打开 %1…</translation>
    </message>
    <message>
        <source>Cannot open the store %1: %2</source>
        <translation>无法打开存储 %1：%2</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>关闭(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Find Records…</source>
        <translation>查找记录(&amp;F)…</translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation>工具(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Verify Store</source>
        <translation>校验存储(&amp;V)</translation>
    </message>
    <message>
        <source>live — a broker holds this store&apos;s lock; the view follows it every 2 s</source>
        <translation>实时 —— 有 Broker 持有此存储的锁；视图每 2 秒跟进一次</translation>
    </message>
    <message>
        <source>%1 (live) — MQDesk Store Explorer</source>
        <translation>%1（实时）— MQDesk 存储浏览器</translation>
    </message>
    <message>
        <source>Kind: %1</source>
        <translation>类型：%1</translation>
    </message>
    <message>
        <source>Size: %1 (%2 bytes)</source>
        <translation>大小：%1（%2 字节）</translation>
    </message>
    <message>
        <source>Entries: %1</source>
        <translation>条目数：%1</translation>
    </message>
    <message>
        <source>Commit-log range: %1 – %2</source>
        <translation>CommitLog 范围：%1 – %2</translation>
    </message>
    <message numerus="yes">
        <source>%n item(s)</source>
        <translation>
            <numerusform>%n 项</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 is not in this store (any more).</source>
        <translation>%1 不在此存储中（或已不存在）。</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::FlushMonitorSource</name>
    <message>
        <source>SYNC_FLUSH</source>
        <translation>SYNC_FLUSH</translation>
    </message>
    <message>
        <source>ASYNC_FLUSH</source>
        <translation>ASYNC_FLUSH</translation>
    </message>
    <message>
        <source>ASYNC_FLUSH + transient store pool</source>
        <translation>ASYNC_FLUSH + 堆外内存池（transientStorePool）</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>%1 #%2 (%3)</source>
        <translation>%1 #%2（%3）</translation>
    </message>
    <message>
        <source>Reading flush samples failed: %1</source>
        <translation>读取刷盘采样失败：%1</translation>
    </message>
    <message>
        <source>Reading flush samples failed</source>
        <translation>读取刷盘采样失败</translation>
    </message>
    <message>
        <source>disk fdatasync (broker): %1 µs</source>
        <translation>磁盘 fdatasync（Broker）：%1 µs</translation>
    </message>
    <message>
        <source>Reading GET_BROKER_RUNTIME_INFO from %1 failed: %2</source>
        <translation>从 %1 读取 GET_BROKER_RUNTIME_INFO 失败：%2</translation>
    </message>
    <message>
        <source>after a restart</source>
        <translation>重启后</translation>
    </message>
    <message>
        <source>%1 does not answer GET_FLUSH_SAMPLES (a Java broker): drawn from GET_BROKER_RUNTIME_INFO once a second. Not reported: %2. Put-to-ack p50/p99 are bucket bounds of putMessageDistributeTime; put-to-ack max is putMessageEntireTimeMax since the broker started.</source>
        <translation>%1 不响应 GET_FLUSH_SAMPLES（Java Broker）：改为每秒读取一次 GET_BROKER_RUNTIME_INFO 来绘制。未提供：%2。写入到确认 p50/p99 取自 putMessageDistributeTime 的分桶边界；写入到确认最大值是 Broker 启动以来的 putMessageEntireTimeMax。</translation>
    </message>
    <message>
        <source>Broker reports: %1</source>
        <translation>Broker 报告：%1</translation>
    </message>
    <message>
        <source>Broker reports: %1 (%2 after a restart)</source>
        <translation>Broker 报告：%1（重启后为 %2）</translation>
    </message>
    <message>
        <source>A Java broker&apos;s runtime info does not report its write path.</source>
        <translation>Java Broker 的运行时信息不报告其写入路径。</translation>
    </message>
    <message>
        <source>Measuring the disk&apos;s fdatasync time failed: %1</source>
        <translation>测量磁盘 fdatasync 耗时失败：%1</translation>
    </message>
    <message>
        <source>disk fdatasync p50: %1 µs (4 KiB append, %2 runs)</source>
        <translation>磁盘 fdatasync p50：%1 µs（4 KiB 追加写，%2 次）</translation>
    </message>
    <message>
        <source>The broker is not running: start it to switch the flush mode.</source>
        <translation>Broker 未运行：请先启动它再切换刷盘方式。</translation>
    </message>
    <message>
        <source>Switching the flush mode to %1…</source>
        <translation>正在将刷盘方式切换为 %1…</translation>
    </message>
    <message>
        <source>Flush mode set to %1.</source>
        <translation>刷盘方式已设为 %1。</translation>
    </message>
    <message>
        <source>Switching the flush mode failed: %1</source>
        <translation>切换刷盘方式失败：%1</translation>
    </message>
    <message>
        <source>writeWithoutMmap can be switched live only on a running MQDesk broker.</source>
        <translation>只有运行中的 MQDesk Broker 才能在线切换 writeWithoutMmap。</translation>
    </message>
    <message>
        <source>Switching writeWithoutMmap to %1…</source>
        <translation>正在将 writeWithoutMmap 切换为 %1…</translation>
    </message>
    <message>
        <source>writeWithoutMmap set to %1: appends go through %2 from now on.</source>
        <translation>writeWithoutMmap 已设为 %1：此后追加写入经由 %2。</translation>
    </message>
    <message>
        <source>Switching writeWithoutMmap failed: %1</source>
        <translation>切换 writeWithoutMmap 失败：%1</translation>
    </message>
    <message>
        <source>Saving flushDiskType in %1&apos;s configuration…</source>
        <translation>正在将 flushDiskType 保存到 %1 的配置中…</translation>
    </message>
    <message>
        <source>%1 is configured for %2 now. A Java broker applies the flush mode only after a restart: until then it keeps flushing as %3.</source>
        <translation>%1 现已配置为 %2。Java Broker 需重启后才会应用刷盘方式：在此之前仍按 %3 刷盘。</translation>
    </message>
    <message>
        <source>Saving the flush mode failed: %1</source>
        <translation>保存刷盘方式失败：%1</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::FlushMonitorView</name>
    <message>
        <source>Applied live with UPDATE_BROKER_CONFIG (flushDiskType, transientStorePoolEnable)</source>
        <translation>通过 UPDATE_BROKER_CONFIG 实时生效（flushDiskType、transientStorePoolEnable）</translation>
    </message>
    <message>
        <source>1 min</source>
        <translation>1 分钟</translation>
    </message>
    <message>
        <source>5 min</source>
        <translation>5 分钟</translation>
    </message>
    <message>
        <source>15 min</source>
        <translation>15 分钟</translation>
    </message>
    <message>
        <source>Flush mode:</source>
        <translation>刷盘方式：</translation>
    </message>
    <message>
        <source>Latency (µs)</source>
        <translation>延迟（µs）</translation>
    </message>
    <message>
        <source>Put TPS (msg/s)</source>
        <translation>写入 TPS（条/秒）</translation>
    </message>
    <message>
        <source>Data at risk (KiB)</source>
        <translation>未刷盘数据（KiB）</translation>
    </message>
    <message>
        <source>Bytes flushed (KiB/s)</source>
        <translation>刷盘字节数（KiB/s）</translation>
    </message>
    <message>
        <source>Time (local, HH:mm:ss)</source>
        <translation>时间（本地，HH:mm:ss）</translation>
    </message>
    <message>
        <source>flush p50</source>
        <translation>刷盘 p50</translation>
    </message>
    <message>
        <source>flush p99</source>
        <translation>刷盘 p99</translation>
    </message>
    <message>
        <source>flush max</source>
        <translation>刷盘最大值</translation>
    </message>
    <message>
        <source>put-to-ack p50</source>
        <translation>写入到确认 p50</translation>
    </message>
    <message>
        <source>put-to-ack p99</source>
        <translation>写入到确认 p99</translation>
    </message>
    <message>
        <source>put TPS</source>
        <translation>写入 TPS</translation>
    </message>
    <message>
        <source>bytes flushed</source>
        <translation>刷盘字节数</translation>
    </message>
    <message>
        <source>data at risk</source>
        <translation>未刷盘数据</translation>
    </message>
    <message>
        <source>restart (%1)</source>
        <translation>重启（%1）</translation>
    </message>
    <message>
        <source>flush.png</source>
        <translation>flush.png</translation>
    </message>
    <message>
        <source>flush.csv</source>
        <translation>flush.csv</translation>
    </message>
    <message>
        <source>%1  %2
flush p50 / p99 / max: %3 / %4 / %5 µs
put-to-ack p50 / p99 / max: %6 / %7 / %8 µs
put TPS: %9 msg/s · bytes flushed: %10 · data at risk: %11</source>
        <translation>%1  %2
刷盘 p50 / p99 / 最大值：%3 / %4 / %5 µs
写入到确认 p50 / p99 / 最大值：%6 / %7 / %8 µs
写入 TPS：%9 条/秒 · 刷盘字节数：%10 · 未刷盘数据：%11</translation>
    </message>
    <message>
        <source>The broker of the shown cluster whose flushing is drawn</source>
        <translation>当前集群中要绘制其刷盘情况的 Broker</translation>
    </message>
    <message>
        <source>Broker:</source>
        <translation>Broker：</translation>
    </message>
    <message>
        <source>put-to-ack max</source>
        <translation>写入到确认最大值</translation>
    </message>
    <message>
        <source>app started</source>
        <translation>应用已启动</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::GroupQueueModel</name>
    <message>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <source>Topic</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>Broker</source>
        <translation>Broker</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>队列</translation>
    </message>
    <message>
        <source>Broker offset</source>
        <translation>Broker 位点</translation>
    </message>
    <message>
        <source>Consumer offset</source>
        <translation>消费位点</translation>
    </message>
    <message>
        <source>Lag</source>
        <translation>堆积</translation>
    </message>
    <message>
        <source>Last consume time</source>
        <translation>最后消费时间</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::GroupTableModel</name>
    <message>
        <source>offline</source>
        <translation>离线</translation>
    </message>
    <message>
        <source>push</source>
        <translation>推（push）</translation>
    </message>
    <message>
        <source>pull</source>
        <translation>拉（pull）</translation>
    </message>
    <message>
        <source>broadcasting</source>
        <translation>广播</translation>
    </message>
    <message>
        <source>clustering</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1，%2</translation>
    </message>
    <message>
        <source>Retry queues: %1, max retries: %2, consume %3</source>
        <translation>重试队列数：%1，最大重试次数：%2，消费%3</translation>
    </message>
    <message>
        <source>enabled</source>
        <translation>已启用</translation>
    </message>
    <message>
        <source>disabled</source>
        <translation>已禁用</translation>
    </message>
    <message>
        <source>…</source>
        <translation>…</translation>
    </message>
    <message>
        <source>Group</source>
        <translation>消费者组</translation>
    </message>
    <message>
        <source>Online clients</source>
        <translation>在线客户端</translation>
    </message>
    <message>
        <source>Total lag</source>
        <translation>总堆积</translation>
    </message>
    <message>
        <source>Topics consumed</source>
        <translation>消费的主题</translation>
    </message>
    <message>
        <source>Consume mode</source>
        <translation>消费模式</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::GroupsView</name>
    <message>
        <source>Confirm</source>
        <translation>确认</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Filter groups and topics (Ctrl+F)</source>
        <translation>过滤消费者组和主题（Ctrl+F）</translation>
    </message>
    <message>
        <source>System groups</source>
        <translation>系统消费者组</translation>
    </message>
    <message>
        <source>Fetch the groups again (F5)</source>
        <translation>重新获取消费者组（F5）</translation>
    </message>
    <message>
        <source>Create group…</source>
        <translation>创建消费者组…</translation>
    </message>
    <message>
        <source>Reset offsets…</source>
        <translation>重置位点…</translation>
    </message>
    <message>
        <source>Skip accumulated</source>
        <translation>跳过堆积</translation>
    </message>
    <message>
        <source>Move the committed offsets to the latest: the lag becomes 0</source>
        <translation>将已提交的位点移到最新：堆积变为 0</translation>
    </message>
    <message>
        <source>Delete group</source>
        <translation>删除消费者组</translation>
    </message>
    <message>
        <source>Not connected: start the broker (Broker ▸ Start) to see its consumer groups.</source>
        <translation>未连接：启动 Broker（Broker ▸ 启动）即可查看其消费者组。</translation>
    </message>
    <message>
        <source>Loading consumer groups…</source>
        <translation>正在加载消费者组…</translation>
    </message>
    <message>
        <source>Some brokers did not answer; the list may be incomplete: %1</source>
        <translation>部分 Broker 未响应，列表可能不完整：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n consumer group(s) on %1 broker(s)</source>
        <translation>
            <numerusform>%n 个消费者组，分布在 %1 个 Broker 上</numerusform>
        </translation>
    </message>
    <message>
        <source>No consumer groups yet — start a consumer against %1
(its group appears here once it connects), or use Create group….</source>
        <translation>还没有消费者组 —— 启动一个连接 %1 的消费者
（连接后其消费者组会显示在这里），或使用“创建消费者组…”。</translation>
    </message>
    <message>
        <source>Not connected. Start the broker to see its consumer groups.</source>
        <translation>未连接。启动 Broker 即可查看其消费者组。</translation>
    </message>
    <message>
        <source>Select a group to see its queues and its clients.</source>
        <translation>选择一个消费者组以查看其队列和客户端。</translation>
    </message>
    <message>
        <source>%1: loading…</source>
        <translation>%1：加载中…</translation>
    </message>
    <message>
        <source>%1: its queues could not be read: %2</source>
        <translation>%1：无法读取其队列：%2</translation>
    </message>
    <message>
        <source>%1: no committed offsets yet</source>
        <translation>%1：尚无已提交的位点</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n queue(s), lag %2</source>
        <translation>
            <numerusform>%1：%n 个队列，堆积 %2</numerusform>
        </translation>
    </message>
    <message>
        <source>Clients could not be read: %1</source>
        <translation>无法读取客户端：%1</translation>
    </message>
    <message>
        <source>Clients: not online — no consumer of this group is connected.</source>
        <translation>客户端：不在线 —— 该消费者组没有已连接的消费者。</translation>
    </message>
    <message numerus="yes">
        <source>Clients (%n online):</source>
        <translation>
            <numerusform>客户端（%n 个在线）：</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 · %2 · %3 · version %4</source>
        <translation>%1 · %2 · %3 · 版本 %4</translation>
    </message>
    <message>
        <source>Select a group first.</source>
        <translation>请先选择一个消费者组。</translation>
    </message>
    <message>
        <source>%1 has no committed offsets to reset: it has not consumed anything yet.</source>
        <translation>%1 没有可重置的已提交位点：它还没有消费过任何消息。</translation>
    </message>
    <message>
        <source>the earliest stored message: everything still stored is consumed again</source>
        <translation>最早存储的消息：仍在存储中的消息全部重新消费</translation>
    </message>
    <message>
        <source>the latest offset: the %1 messages not consumed yet are skipped and the lag becomes 0</source>
        <translation>最新位点：跳过尚未消费的 %1 条消息，堆积变为 0</translation>
    </message>
    <message>
        <source>the first message stored at or after %1</source>
        <translation>存储时间不早于 %1 的第一条消息</translation>
    </message>
    <message>
        <source>Reset the offsets of %1 on %2 to %3? The total lag is now %4.</source>
        <translation>将 %1 在 %2 上的位点重置到%3？当前总堆积为 %4。</translation>
    </message>
    <message numerus="yes">
        <source>The broker tells the %n online client(s) to move to the new offsets.</source>
        <translation>
            <numerusform>Broker 会通知 %n 个在线客户端移动到新位点。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n pull client(s) online may commit their own offsets over the reset; stop them first.</source>
        <translation>
            <numerusform>有 %n 个在线的拉取客户端可能会用自己的位点覆盖本次重置；请先停止它们。</numerusform>
        </translation>
    </message>
    <message>
        <source>Resetting the offsets of %1…</source>
        <translation>正在重置 %1 的位点…</translation>
    </message>
    <message numerus="yes">
        <source>Sent the reset of %n queue(s) of %1 to its online clients.</source>
        <translation>
            <numerusform>已将 %1 的 %n 个队列的重置发送给其在线客户端。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Reset %n queue(s) of %1.</source>
        <translation>
            <numerusform>已重置 %1 的 %n 个队列。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The reset of %1 stopped after %n queue(s): %2</source>
        <translation>
            <numerusform>%1 的重置在 %n 个队列后中止：%2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Delete the group %1 on every broker, with its committed offsets (%n topic(s))?</source>
        <translation>
            <numerusform>在所有 Broker 上删除消费者组 %1 及其已提交的位点（%n 个主题）？</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n client(s) still online will recreate it.</source>
        <translation>
            <numerusform>仍有 %n 个在线客户端，它们会重新创建该消费者组。</numerusform>
        </translation>
    </message>
    <message>
        <source>Deleted the group %1.</source>
        <translation>已删除消费者组 %1。</translation>
    </message>
    <message>
        <source>Deleting %1 failed: %2</source>
        <translation>删除 %1 失败：%2</translation>
    </message>
    <message>
        <source>Creating the group %1…</source>
        <translation>正在创建消费者组 %1…</translation>
    </message>
    <message>
        <source>Created the group %1 on every broker.</source>
        <translation>已在所有 Broker 上创建消费者组 %1。</translation>
    </message>
    <message>
        <source>Creating %1 failed: %2</source>
        <translation>创建 %1 失败：%2</translation>
    </message>
    <message>
        <source>consumer-groups.csv</source>
        <translation>consumer-groups.csv</translation>
    </message>
    <message>
        <source>consumer-group-queues.csv</source>
        <translation>consumer-group-queues.csv</translation>
    </message>
    <message>
        <source>Queues and clients</source>
        <translation>队列和客户端</translation>
    </message>
    <message>
        <source>Lag over time</source>
        <translation>堆积趋势</translation>
    </message>
    <message>
        <source>POP: %1 in flight (popped, not acked) · %2 awaiting revive · %3 in its retry topics</source>
        <translation>POP：%1 条处理中（已 Pop 未 Ack）· %2 条等待 Revive · %3 条在其重试主题中</translation>
    </message>
    <message>
        <source> · %1 held by FIFO pops</source>
        <translation> · %1 条被顺序 Pop 占用</translation>
    </message>
    <message>
        <source>Pops (setConsumeMode POP): %1</source>
        <translation>以 POP 方式消费（setConsumeMode POP）：%1</translation>
    </message>
    <message>
        <source>(counted up to the scan limit: at least these)</source>
        <translation>（统计至扫描上限：至少这些）</translation>
    </message>
    <message>
        <source>No group or topic matches the filter. Clear the search field to see every group.</source>
        <translation>没有与筛选条件匹配的消费者组或主题。清空搜索框即可看到所有消费者组。</translation>
    </message>
    <message>
        <source>Clients&apos; running info</source>
        <translation>客户端运行信息</translation>
    </message>
    <message>
        <source>Topic</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>Traffic</source>
        <translation>流量</translation>
    </message>
    <message>
        <source>The brokers&apos; statistics count no message taken by this group yet.</source>
        <translation>Broker 的统计数据中尚无该消费组拉取的消息。</translation>
    </message>
    <message>
        <source>The brokers&apos; statistics could not be read: %1</source>
        <translation>无法读取 Broker 的统计数据：%1</translation>
    </message>
    <message>
        <source>Consumed: %1/s now (the brokers&apos; consume TPS) · %2 in the last hour · %3 in the last 24 h</source>
        <translation>已消费：当前 %1 条/秒（Broker 的消费 TPS）· 最近一小时 %2 条 · 最近 24 小时 %3 条</translation>
    </message>
    <message>
        <source>Some topics could not be read: %1</source>
        <translation>部分主题无法读取：%1</translation>
    </message>
    <message>
        <source>Lite topics could not be read: %1</source>
        <translation>无法读取 Lite 主题：%1</translation>
    </message>
    <message numerus="yes">
        <source>Lite group of %1: %n lite topic(s) subscribed by its online clients</source>
        <translation>
            <numerusform>%1 的 Lite 消费者组：在线客户端订阅了 %n 个 Lite 主题</numerusform>
        </translation>
    </message>
    <message>
        <source> · lag %1</source>
        <translation> · 堆积 %1</translation>
    </message>
    <message>
        <source> · oldest unconsumed %1</source>
        <translation> · 最早未消费 %1</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Largest lag: %1</source>
        <translation>堆积最多：%1</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::HealthReportView</name>
    <message>
        <source>Verify reads every commit-log record, consume-queue entry, index entry and config file of the store (read-only) and lists what is wrong, and where.</source>
        <translation>校验会读取存储中的每条 CommitLog 记录、ConsumeQueue 条目、索引条目和配置文件（只读），并列出哪里有什么问题。</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Offset</source>
        <translation>偏移量</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>说明</translation>
    </message>
    <message>
        <source>store-faults.csv</source>
        <translation>store-faults.csv</translation>
    </message>
    <message>
        <source>Verify cancelled.</source>
        <translation>校验已取消。</translation>
    </message>
    <message>
        <source>Verify failed: %1</source>
        <translation>校验失败：%1</translation>
    </message>
    <message>
        <source>Verify</source>
        <translation>校验</translation>
    </message>
    <message>
        <source>Check every file of the store (read-only; nothing is changed)</source>
        <translation>检查存储的每个文件（只读，不做任何修改）</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>All kinds</source>
        <translation>全部类型</translation>
    </message>
    <message>
        <source>Kind:</source>
        <translation>类型：</translation>
    </message>
    <message>
        <source>Verifying…</source>
        <translation>正在校验…</translation>
    </message>
    <message>
        <source>The store may have changed since the last verify: run Verify again.</source>
        <translation>自上次校验以来存储可能已发生变化：请再次运行“校验”。</translation>
    </message>
    <message>
        <source>%1 of %2, %3 MB/s</source>
        <translation>%1 / %2，%3 MB/s</translation>
    </message>
    <message>
        <source>Verified in %2 s: %1 of commit log (%3 MB/s).</source>
        <translation>校验用时 %2 秒：CommitLog %1（%3 MB/s）。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Healthy:&lt;/b&gt; no faults found.</source>
        <translation>&lt;b&gt;健康：&lt;/b&gt;未发现问题。</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%n fault(s) found&lt;/b&gt; — double-click one to see it in its file.</source>
        <translation>
            <numerusform>&lt;b&gt;发现 %n 个问题&lt;/b&gt; —— 双击某一项可在其所在文件中查看。</numerusform>
        </translation>
    </message>
    <message>
        <source>Records: %1 in %2 of commit log scanned (data ends at offset %3).</source>
        <translation>记录：已扫描 CommitLog %2，共 %1 条（数据结束于偏移量 %3）。</translation>
    </message>
    <message>
        <source>Consume-queue entries: %1; index entries: %2.</source>
        <translation>ConsumeQueue 条目：%1；索引条目：%2。</translation>
    </message>
    <message>
        <source>Abort file: present — the next start runs abnormal recovery.</source>
        <translation>abort 文件：存在 —— 下次启动将执行异常恢复。</translation>
    </message>
    <message>
        <source>Abort file: absent — the next start runs normal recovery.</source>
        <translation>abort 文件：不存在 —— 下次启动将执行正常恢复。</translation>
    </message>
    <message>
        <source>Live: a broker holds the lock; the tail may change while it is scanned.</source>
        <translation>实时：有 Broker 持有锁；扫描期间末尾数据可能发生变化。</translation>
    </message>
    <message>
        <source>Normal recovery: %1</source>
        <translation>正常恢复：%1</translation>
    </message>
    <message>
        <source>Abnormal recovery: %1</source>
        <translation>异常恢复：%1</translation>
    </message>
    <message>
        <source>would not open: %1</source>
        <translation>无法打开：%1</translation>
    </message>
    <message>
        <source>stops at offset %1 (%2 @%3), %4</source>
        <translation>停止于偏移量 %1（%2 @%3），%4</translation>
    </message>
    <message>
        <source>; &lt;b&gt;would truncate %1 bytes, lose %2 record(s) and delete %3 file(s)&lt;/b&gt;</source>
        <translation>；&lt;b&gt;将截断 %1 字节，丢失 %2 条记录并删除 %3 个文件&lt;/b&gt;</translation>
    </message>
    <message>
        <source>; nothing would be lost (the %1 bytes after it hold no record and would be zeroed)</source>
        <translation>；不会丢失任何数据（其后的 %1 字节不含记录，将被清零）</translation>
    </message>
    <message>
        <source>; nothing would be cut</source>
        <translation>；不会截断任何内容</translation>
    </message>
    <message>
        <source>end of data</source>
        <translation>数据结束</translation>
    </message>
    <message>
        <source>end of data (end-of-file record of the last file)</source>
        <translation>数据结束（最后一个文件的文件末尾记录）</translation>
    </message>
    <message>
        <source>no commit-log files</source>
        <translation>没有 CommitLog 文件</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::HistoryStore</name>
    <message>
        <source>The history database %1 could not be read (%2) nor moved aside; this session records into %3.</source>
        <translation>无法读取历史数据库 %1（%2），也无法将其移开；本次会话记录到 %3。</translation>
    </message>
    <message>
        <source>The history database %1 could not be read (%2): it was moved aside as %3 and a new one started.</source>
        <translation>无法读取历史数据库 %1（%2）：已将其移为 %3，并新建了一个数据库。</translation>
    </message>
    <message>
        <source>The history database %1 is locked by another process (%2): this session records into %3.</source>
        <translation>历史数据库 %1 被另一个进程锁定（%2）：本次会话记录到 %3。</translation>
    </message>
    <message>
        <source>No history database could be opened at %1 (%2): history is kept in memory until the app quits.</source>
        <translation>无法在 %1 打开历史数据库（%2）：历史数据仅保存在内存中，直到应用退出。</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::IndexEntryModel</name>
    <message>
        <source>Entry</source>
        <translation>条目</translation>
    </message>
    <message>
        <source>Position</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Key hash</source>
        <translation>键哈希</translation>
    </message>
    <message>
        <source>Commit-log offset</source>
        <translation>CommitLog 偏移量</translation>
    </message>
    <message>
        <source>Stored at</source>
        <translation>存储时间</translation>
    </message>
    <message>
        <source>Prev</source>
        <translation>上一条目</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::IndexFileView</name>
    <message>
        <source>Index file</source>
        <translation>索引文件</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Index count</source>
        <translation>索引数</translation>
    </message>
    <message>
        <source>Begin</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>End</source>
        <translation>结束</translation>
    </message>
    <message>
        <source>index-files.csv</source>
        <translation>index-files.csv</translation>
    </message>
    <message>
        <source>index-entries.csv</source>
        <translation>index-entries.csv</translation>
    </message>
    <message>
        <source>Slot occupancy</source>
        <translation>槽位占用</translation>
    </message>
    <message>
        <source>Entries</source>
        <translation>条目</translation>
    </message>
    <message>
        <source>Key lookup</source>
        <translation>按键查找</translation>
    </message>
    <message>
        <source>Header</source>
        <translation>文件头</translation>
    </message>
    <message>
        <source>Begin store time</source>
        <translation>起始存储时间</translation>
    </message>
    <message>
        <source>End store time</source>
        <translation>结束存储时间</translation>
    </message>
    <message>
        <source>Begin commit-log offset</source>
        <translation>起始 CommitLog 偏移量</translation>
    </message>
    <message>
        <source>End commit-log offset</source>
        <translation>结束 CommitLog 偏移量</translation>
    </message>
    <message>
        <source>Hash slot count</source>
        <translation>哈希槽数</translation>
    </message>
    <message>
        <source>Slot capacity (inferred)</source>
        <translation>槽位容量（推断）</translation>
    </message>
    <message>
        <source>Entry capacity (inferred)</source>
        <translation>条目容量（推断）</translation>
    </message>
    <message>
        <source>Layout</source>
        <translation>布局</translation>
    </message>
    <message>
        <source>Topic</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>Key (a KEYS token or a UNIQ_KEY)</source>
        <translation>键（KEYS 中的一项或 UNIQ_KEY）</translation>
    </message>
    <message>
        <source>Look up</source>
        <translation>查找</translation>
    </message>
    <message>
        <source>The lookup walks topic#key&apos;s hash chain in every index file, newest first, as the broker does.</source>
        <translation>查找会像 Broker 一样，从最新的索引文件开始，在每个索引文件中遍历 topic#key 的哈希链。</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Entry</source>
        <translation>条目</translation>
    </message>
    <message>
        <source>Position</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Key hash</source>
        <translation>键哈希</translation>
    </message>
    <message>
        <source>Commit-log offset</source>
        <translation>CommitLog 偏移量</translation>
    </message>
    <message>
        <source>Stored at</source>
        <translation>存储时间</translation>
    </message>
    <message>
        <source>Prev</source>
        <translation>上一条目</translation>
    </message>
    <message>
        <source>Hash match</source>
        <translation>哈希匹配</translation>
    </message>
    <message>
        <source>Record has key</source>
        <translation>记录含该键</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>index-lookup.csv</source>
        <translation>index-lookup.csv</translation>
    </message>
    <message>
        <source>No index files: %1/index holds none (the broker writes them only when messageIndexEnable is on and a message carries keys).</source>
        <translation>没有索引文件：%1/index 中没有任何索引文件（仅当 messageIndexEnable 开启且消息带有 Keys 时，Broker 才会写入索引文件）。</translation>
    </message>
    <message>
        <source>No chart: %1</source>
        <translation>无图表：%1</translation>
    </message>
    <message numerus="yes">
        <source>Reading %n slot(s)…</source>
        <translation>
            <numerusform>正在读取 %n 个槽位…</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 of %2 slots occupied (%3%), in %4 buckets of about %5 slots.</source>
        <translation>%2 个槽位中已占用 %1 个（%3%），分为 %4 组，每组约 %5 个槽位。</translation>
    </message>
    <message>
        <source>%1 (entries 1–%2)</source>
        <translation>%1（条目 1–%2）</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>ok (%1 bytes)</source>
        <translation>正常（%1 字节）</translation>
    </message>
    <message>
        <source>Enter a topic and a key: the index stores topic#key.</source>
        <translation>请输入主题和键：索引中存储的是 topic#key。</translation>
    </message>
    <message>
        <source>Looking up %1#%2…</source>
        <translation>正在查找 %1#%2…</translation>
    </message>
    <message>
        <source>No commit-log file holds offset %1: the record is gone (deleted by retention or never written).</source>
        <translation>没有 CommitLog 文件包含偏移量 %1：该记录已不存在（已因过期被删除，或从未写入）。</translation>
    </message>
    <message>
        <source>slot %1</source>
        <translation>槽位 %1</translation>
    </message>
    <message>
        <source>the slot is empty</source>
        <translation>该槽位为空</translation>
    </message>
    <message>
        <source>the slot points at entry %1, the newest of its chain</source>
        <translation>该槽位指向条目 %1，即其链上最新的条目</translation>
    </message>
    <message>
        <source>no record there</source>
        <translation>该处没有记录</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>another key with the same slot</source>
        <translation>同一槽位上的另一个键</translation>
    </message>
    <message>
        <source>stop</source>
        <translation>结束</translation>
    </message>
    <message>
        <source>No index files to look in.</source>
        <translation>没有可供查找的索引文件。</translation>
    </message>
    <message numerus="yes">
        <source>%1 (hash %2): %n record(s) carry the key, in %3 index file(s). Double-click a step to see its record.</source>
        <translation>
            <numerusform>%1（哈希 %2）：%3 个索引文件中共有 %n 条记录带有该键。双击某一步可查看其记录。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::IndexOccupancyChart</name>
    <message>
        <source>Hash slot (slot number)</source>
        <translation>哈希槽（槽位编号）</translation>
    </message>
    <message>
        <source>Occupied slots per bucket</source>
        <translation>每组已占用的槽位数</translation>
    </message>
    <message>
        <source>Slots %1–%2: %3 of %4 occupied (%5%)</source>
        <translation>槽位 %1–%2：%4 个中已占用 %3 个（%5%）</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::LagChart</name>
    <message>
        <source>15 min</source>
        <translation>15 分钟</translation>
    </message>
    <message>
        <source>1 h</source>
        <translation>1 小时</translation>
    </message>
    <message>
        <source>24 h (per minute)</source>
        <translation>24 小时（按分钟）</translation>
    </message>
    <message>
        <source>7 days (per minute)</source>
        <translation>7 天（按分钟）</translation>
    </message>
    <message>
        <source>lag</source>
        <translation>堆积</translation>
    </message>
    <message>
        <source>minute maximum</source>
        <translation>每分钟最大值</translation>
    </message>
    <message>
        <source>Time (local)</source>
        <translation>时间（本地）</translation>
    </message>
    <message>
        <source>Lag (messages)</source>
        <translation>堆积（条）</translation>
    </message>
    <message>
        <source>Select a group to see its lag over time.</source>
        <translation>选择一个消费者组以查看其堆积趋势。</translation>
    </message>
    <message>
        <source>Loading the lag history of %1…</source>
        <translation>正在加载 %1 的堆积历史…</translation>
    </message>
    <message>
        <source>%1: no lag recorded in this window yet.</source>
        <translation>%1：此时间窗口内尚未记录堆积。</translation>
    </message>
    <message>
        <source>%1: lag of its committed queues (messages)</source>
        <translation>%1：其已提交位点的队列的堆积（条）</translation>
    </message>
    <message>
        <source>offsets reset</source>
        <translation>位点已重置</translation>
    </message>
    <message>
        <source>app started</source>
        <translation>应用已启动</translation>
    </message>
    <message>
        <source>%1
lag: average %2, maximum %3 messages</source>
        <translation>%1
堆积：平均 %2 条，最大 %3 条</translation>
    </message>
    <message>
        <source>%1
lag: %2 messages</source>
        <translation>%1
堆积：%2 条</translation>
    </message>
    <message>
        <source>%1-lag.png</source>
        <translation>%1-lag.png</translation>
    </message>
    <message>
        <source>%1-lag.csv</source>
        <translation>%1-lag.csv</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::Language</name>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>The language changes the next time MQDesk starts.</source>
        <translation>语言将在 MQDesk 下次启动时切换。</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::MainWindow</name>
    <message>
        <source>MQDesk</source>
        <translation>MQDesk</translation>
    </message>
    <message>
        <source>Overview</source>
        <translation>概览</translation>
    </message>
    <message>
        <source>Topics</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>Consumer groups</source>
        <translation>消费者组</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>消息</translation>
    </message>
    <message>
        <source>Flush monitor</source>
        <translation>刷盘监控</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Broker</source>
        <translation>Broker(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;Start</source>
        <translation>启动(&amp;S)</translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation>停止(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Restart</source>
        <translation>重启(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Connections</source>
        <translation>连接(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Broker %1</source>
        <translation>Broker %1</translation>
    </message>
    <message>
        <source>NameServer %1 · broker %2</source>
        <translation>NameServer %1 · Broker %2</translation>
    </message>
    <message>
        <source>Stopping the broker…</source>
        <translation>正在停止 Broker…</translation>
    </message>
    <message>
        <source>Views show %1 (%2)</source>
        <translation>视图显示 %1（%2）</translation>
    </message>
    <message>
        <source>%1: %p%</source>
        <translation>%1：%p%</translation>
    </message>
    <message>
        <source>port %1 is in use — choose another port</source>
        <translation>端口 %1 已被占用 —— 请选择其他端口</translation>
    </message>
    <message>
        <source>could not start: %1</source>
        <translation>无法启动：%1</translation>
    </message>
    <message>
        <source>Access control</source>
        <translation>访问控制</translation>
    </message>
    <message>
        <source>Requests to %1 are not signed: %2</source>
        <translation>发往 %1 的请求未签名：%2</translation>
    </message>
    <message>
        <source>Views show %1 (%2) as %3</source>
        <translation>视图显示 %1（%2），身份 %3</translation>
    </message>
    <message>
        <source>%1: the certificate of %2 is trusted from now on (first use): %3</source>
        <translation>%1：从现在起信任 %2 的证书（首次使用）：%3</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::MessageDetailPane</name>
    <message>
        <source>transaction prepared</source>
        <translation>事务预提交</translation>
    </message>
    <message>
        <source>transaction commit</source>
        <translation>事务提交</translation>
    </message>
    <message>
        <source>transaction rollback</source>
        <translation>事务回滚</translation>
    </message>
    <message>
        <source>compressed</source>
        <translation>已压缩</translation>
    </message>
    <message>
        <source>multiple tags</source>
        <translation>多个标签</translation>
    </message>
    <message>
        <source>born host IPv6</source>
        <translation>生产者主机 IPv6</translation>
    </message>
    <message>
        <source>store host IPv6</source>
        <translation>存储主机 IPv6</translation>
    </message>
    <message>
        <source>inner batch</source>
        <translation>批量内部消息</translation>
    </message>
    <message>
        <source>Select a message to see its fields, properties and body.</source>
        <translation>选择一条消息以查看其字段、属性和消息体。</translation>
    </message>
    <message>
        <source>Field</source>
        <translation>字段</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Property</source>
        <translation>属性</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <source>JSON</source>
        <translation>JSON</translation>
    </message>
    <message>
        <source>Hex</source>
        <translation>十六进制</translation>
    </message>
    <message>
        <source>Body as</source>
        <translation>消息体显示为</translation>
    </message>
    <message>
        <source>Topic</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>队列</translation>
    </message>
    <message>
        <source>Queue offset</source>
        <translation>队列位点</translation>
    </message>
    <message>
        <source>Commit-log offset</source>
        <translation>CommitLog 偏移量</translation>
    </message>
    <message>
        <source>Message ID (offset)</source>
        <translation>消息 ID（偏移量）</translation>
    </message>
    <message>
        <source>Message ID (UNIQ_KEY)</source>
        <translation>消息 ID（UNIQ_KEY）</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>标签（Tags）</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>键（Keys）</translation>
    </message>
    <message>
        <source>Born host</source>
        <translation>生产者主机</translation>
    </message>
    <message>
        <source>Born time</source>
        <translation>生产时间</translation>
    </message>
    <message>
        <source>Store host</source>
        <translation>存储主机</translation>
    </message>
    <message>
        <source>Store time</source>
        <translation>存储时间</translation>
    </message>
    <message>
        <source>Sysflag</source>
        <translation>系统标志（Sysflag）</translation>
    </message>
    <message>
        <source>Flag</source>
        <translation>标志（Flag）</translation>
    </message>
    <message>
        <source>Reconsume times</source>
        <translation>重新消费次数</translation>
    </message>
    <message>
        <source>Prepared transaction offset</source>
        <translation>事务预提交偏移量</translation>
    </message>
    <message>
        <source>Body CRC</source>
        <translation>消息体 CRC</translation>
    </message>
    <message>
        <source>Record size</source>
        <translation>记录大小</translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 字节</translation>
    </message>
    <message>
        <source>Empty body</source>
        <translation>消息体为空</translation>
    </message>
    <message>
        <source>JSON, UTF-8 · %1 bytes</source>
        <translation>JSON，UTF-8 · %1 字节</translation>
    </message>
    <message>
        <source>UTF-8 text · %1 bytes</source>
        <translation>UTF-8 文本 · %1 字节</translation>
    </message>
    <message>
        <source>Binary (not valid UTF-8) · %1 bytes</source>
        <translation>二进制（不是有效的 UTF-8）· %1 字节</translation>
    </message>
    <message>
        <source> · compressed by the producer</source>
        <translation> · 由生产者压缩</translation>
    </message>
    <message>
        <source> · first %1 bytes shown</source>
        <translation> · 仅显示前 %1 字节</translation>
    </message>
    <message>
        <source>The body is not JSON. Choose Text or Hex.</source>
        <translation>消息体不是 JSON。请选择“文本”或“十六进制”。</translation>
    </message>
    <message>
        <source>The body is not valid UTF-8 text. Choose Hex.</source>
        <translation>消息体不是有效的 UTF-8 文本。请选择“十六进制”。</translation>
    </message>
    <message>
        <source>Body</source>
        <translation>消息体</translation>
    </message>
    <message>
        <source>Trace</source>
        <translation>轨迹</translation>
    </message>
    <message>
        <source>This message has no UNIQ_KEY: no client traced it.</source>
        <translation>这条消息没有 UNIQ_KEY：没有客户端记录过它的轨迹。</translation>
    </message>
    <message>
        <source>Select a message to see its trace.</source>
        <translation>选择一条消息以查看其轨迹。</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::MessageTableModel</name>
    <message>
        <source>%1 bytes in the log, body %2 bytes</source>
        <translation>日志中 %1 字节，消息体 %2 字节</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>队列</translation>
    </message>
    <message>
        <source>Queue offset</source>
        <translation>队列位点</translation>
    </message>
    <message>
        <source>Store time</source>
        <translation>存储时间</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>标签（Tags）</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>键（Keys）</translation>
    </message>
    <message>
        <source>Message ID (offset)</source>
        <translation>消息 ID（偏移量）</translation>
    </message>
    <message>
        <source>Body size</source>
        <translation>消息体大小</translation>
    </message>
    <message>
        <source>Reconsumed</source>
        <translation>重新消费次数</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::MessageTraceView</name>
    <message>
        <source>Stage</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>Group</source>
        <translation>组</translation>
    </message>
    <message>
        <source>Began</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>耗时</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>Select a message to see its trace.</source>
        <translation>选择一条消息以查看其轨迹。</translation>
    </message>
    <message>
        <source>Reading the trace of %1…</source>
        <translation>正在读取 %1 的轨迹…</translation>
    </message>
    <message>
        <source>The trace of %1 could not be read: %2</source>
        <translation>无法读取 %1 的轨迹：%2</translation>
    </message>
    <message>
        <source>No trace of %1. Clients write traces when message trace is on (the Java client&apos;s enableMsgTrace, Spring Boot&apos;s enable-msg-trace) to %2.</source>
        <translation>没有 %1 的轨迹。客户端开启消息轨迹后（Java 客户端的 enableMsgTrace，Spring Boot 的 enable-msg-trace）会把轨迹写入 %2。</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>Sent by %1</source>
        <translation>由 %1 发送</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <source>Success</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>%1 message to %2 on %3, from %4</source>
        <translation>%1消息，发往 %3 上的 %2，来自 %4</translation>
    </message>
    <message>
        <source>Store</source>
        <translation>存储</translation>
    </message>
    <message>
        <source>Stored</source>
        <translation>已存储</translation>
    </message>
    <message>
        <source>Transaction %1</source>
        <translation>事务 %1</translation>
    </message>
    <message>
        <source>End transaction</source>
        <translation>结束事务</translation>
    </message>
    <message>
        <source>answered a check-back</source>
        <translation>回查时给出的结果</translation>
    </message>
    <message>
        <source>committed or rolled back by the producer</source>
        <translation>由生产者提交或回滚</translation>
    </message>
    <message>
        <source>Not finished</source>
        <translation>未完成</translation>
    </message>
    <message>
        <source>Failed (%1)</source>
        <translation>失败（%1）</translation>
    </message>
    <message>
        <source>%1, delivery %2</source>
        <translation>%1，第 %2 次投递</translation>
    </message>
    <message>
        <source>Consume</source>
        <translation>消费</translation>
    </message>
    <message>
        <source>delivery %1 (retry times %2)</source>
        <translation>第 %1 次投递（重试次数 %2）</translation>
    </message>
    <message>
        <source>Trace of %1: 1 delivery to a consumer group.</source>
        <translation>%1 的轨迹：向消费者组投递 1 次。</translation>
    </message>
    <message>
        <source>Trace of %1: %2 deliveries to consumer groups.</source>
        <translation>%1 的轨迹：向消费者组投递 %2 次。</translation>
    </message>
    <message>
        <source>+0 ms</source>
        <translation>+0 毫秒</translation>
    </message>
    <message>
        <source>stored</source>
        <translation>已存储</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::MessagesView</name>
    <message>
        <source>Load &amp;more</source>
        <translation>加载更多(&amp;M)</translation>
    </message>
    <message>
        <source>Read the next %1 messages</source>
        <translation>读取接下来的 %1 条消息</translation>
    </message>
    <message>
        <source>Topic</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>All queues</source>
        <translation>全部队列</translation>
    </message>
    <message>
        <source>from offset</source>
        <translation>起始位点</translation>
    </message>
    <message>
        <source>from store time</source>
        <translation>起始存储时间</translation>
    </message>
    <message>
        <source>&amp;Browse</source>
        <translation>浏览(&amp;B)</translation>
    </message>
    <message>
        <source>Read the queue from the start you chose, %1 messages at a time</source>
        <translation>从所选起点读取队列，每次 %1 条消息</translation>
    </message>
    <message>
        <source>Send test &amp;message…</source>
        <translation>发送测试消息(&amp;M)…</translation>
    </message>
    <message>
        <source>Topic:</source>
        <translation>主题：</translation>
    </message>
    <message>
        <source>Message ID</source>
        <translation>消息 ID</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>消息键（Key）</translation>
    </message>
    <message>
        <source>Offset message ID or UNIQ_KEY (Ctrl+F)</source>
        <translation>偏移量消息 ID 或 UNIQ_KEY（Ctrl+F）</translation>
    </message>
    <message>
        <source>stored between</source>
        <translation>存储时间介于</translation>
    </message>
    <message>
        <source>and</source>
        <translation>至</translation>
    </message>
    <message>
        <source>&amp;Find</source>
        <translation>查找(&amp;F)</translation>
    </message>
    <message>
        <source>Look up by</source>
        <translation>查询方式</translation>
    </message>
    <message>
        <source>Key (one of the message&apos;s KEYS)</source>
        <translation>消息键（消息 KEYS 之一）</translation>
    </message>
    <message>
        <source>Not connected. Messages can be browsed once the embedded broker is running.</source>
        <translation>未连接。内嵌 Broker 运行后即可浏览消息。</translation>
    </message>
    <message>
        <source>Reading messages…</source>
        <translation>正在读取消息…</translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation>正在查找…</translation>
    </message>
    <message>
        <source>Choose a topic and where to start, then Browse — or look a message up by its ID or key.
Clients send to the NameServer %1; “Send test message…” sends one from here.</source>
        <translation>选择一个主题和起始位置，然后点击“浏览” —— 或按消息 ID 或消息键查找消息。
客户端发送到 NameServer %1；“发送测试消息…”可从这里发送一条。</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>加载中…</translation>
    </message>
    <message>
        <source>Queue %1</source>
        <translation>队列 %1</translation>
    </message>
    <message>
        <source>Choose a topic to browse.</source>
        <translation>请选择要浏览的主题。</translation>
    </message>
    <message>
        <source>queue %1 of %2</source>
        <translation>%2 的队列 %1</translation>
    </message>
    <message>
        <source>from %1</source>
        <translation>从 %1 起</translation>
    </message>
    <message>
        <source>from offset %1</source>
        <translation>从位点 %1 起</translation>
    </message>
    <message>
        <source>No messages in %1 %2. Send one with “Send test message…”, or start earlier.</source>
        <translation>%1 %2 中没有消息。可用“发送测试消息…”发送一条，或从更早的位置开始。</translation>
    </message>
    <message>
        <source>Browsing %1 %2</source>
        <translation>正在浏览 %1 %2</translation>
    </message>
    <message>
        <source>%1 could not be read: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>The next page could not be read: %1</source>
        <translation>无法读取下一页：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n message(s) shown</source>
        <translation>
            <numerusform>已显示 %n 条消息</numerusform>
        </translation>
    </message>
    <message>
        <source> — more follow as you scroll</source>
        <translation> —— 滚动时继续加载</translation>
    </message>
    <message>
        <source> — the end of the queue(s)</source>
        <translation> —— 已到队列末尾</translation>
    </message>
    <message>
        <source>Enter a topic and a message ID to look up.</source>
        <translation>请输入要查找的主题和消息 ID。</translation>
    </message>
    <message>
        <source>No message with ID %1 in topic %2.
An offset message ID has 32 hex digits (56 for IPv6) and names the broker that stored it; a UNIQ_KEY is the ID the producer gave. Check the topic, or look the message up by key.</source>
        <translation>主题 %2 中没有 ID 为 %1 的消息。
偏移量消息 ID 为 32 位十六进制数字（IPv6 为 56 位），并标明存储它的 Broker；UNIQ_KEY 是生产者指定的 ID。请检查主题，或按消息键查找。</translation>
    </message>
    <message>
        <source>The message with ID %1</source>
        <translation>ID 为 %1 的消息</translation>
    </message>
    <message>
        <source>No message with ID %1</source>
        <translation>没有 ID 为 %1 的消息</translation>
    </message>
    <message>
        <source>The lookup failed: %1</source>
        <translation>查找失败：%1</translation>
    </message>
    <message>
        <source>Enter a topic and a key to look up.</source>
        <translation>请输入要查找的主题和消息键。</translation>
    </message>
    <message>
        <source>No message with key “%1” in topic %2 stored between %3 and %4.
Widen the time range, check the topic, or browse the queues.</source>
        <translation>主题 %2 中没有存储时间在 %3 至 %4 之间、消息键为“%1”的消息。
请放宽时间范围、检查主题，或浏览队列。</translation>
    </message>
    <message>
        <source>Key “%1”: the first %2 shown — narrow the time range to see others</source>
        <translation>消息键“%1”：仅显示前 %2 条 —— 缩小时间范围可查看其余消息</translation>
    </message>
    <message numerus="yes">
        <source>Key “%1”: %n message(s)</source>
        <translation>
            <numerusform>消息键“%1”：%n 条消息</numerusform>
        </translation>
    </message>
    <message>
        <source>The message was not sent to %1: %2</source>
        <translation>消息未发送到 %1：%2</translation>
    </message>
    <message>
        <source>Sent to %1: message ID %2, queue %3, queue offset %4.</source>
        <translation>已发送到 %1：消息 ID %2，队列 %3，队列位点 %4。</translation>
    </message>
    <message>
        <source>messages.csv</source>
        <translation>messages.csv</translation>
    </message>
    <message>
        <source>Read the shown query again (F5)</source>
        <translation>重新执行当前查询（F5）</translation>
    </message>
    <message>
        <source>&amp;Resend to its group…</source>
        <translation>重发给所属消费组(&amp;R)…</translation>
    </message>
    <message>
        <source>Send the selected dead letters (or all shown) to their group&apos;s retry topic, so that the group consumes them again</source>
        <translation>把选中的死信（未选中则为全部显示的）发送到所属消费组的重试主题，使该组重新消费</translation>
    </message>
    <message>
        <source>Resend</source>
        <translation>重发</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message numerus="yes">
        <source>Resend the %n selected dead letter(s) to consumer group %1?</source>
        <translation>
            <numerusform>将选中的 %n 条死信重发给消费组 %1？</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Resend all %n dead letter(s) shown to consumer group %1?</source>
        <translation>
            <numerusform>将显示的全部 %n 条死信重发给消费组 %1？</numerusform>
        </translation>
    </message>
    <message>
        <source>They are sent to %1, so only %2 consumes them again; the dead letters stay in %3.</source>
        <translation>它们会发送到 %1，只有 %2 会重新消费；死信仍保留在 %3。</translation>
    </message>
    <message>
        <source>Not connected: nothing was resent.</source>
        <translation>未连接：没有重发任何消息。</translation>
    </message>
    <message numerus="yes">
        <source>Resent %n dead letter(s) to %1.</source>
        <translation>
            <numerusform>已向 %1 重发 %n 条死信。</numerusform>
        </translation>
    </message>
    <message>
        <source>Resent %1 dead letter(s) to %2; %3 failed: %4</source>
        <translation>已向 %2 重发 %1 条死信；%3 条失败：%4</translation>
    </message>
    <message>
        <source>E&amp;xport…</source>
        <translation>导出(&amp;X)…</translation>
    </message>
    <message>
        <source>Write the selected messages (or all shown) to a file, bodies and properties included: JSON Lines (.jsonl) or CSV (.csv)</source>
        <translation>将选中的消息（未选中时为全部显示的消息）连同消息体和属性写入文件：JSON Lines（.jsonl）或 CSV（.csv）</translation>
    </message>
    <message numerus="yes">
        <source>Export %n selected message(s)</source>
        <translation>
            <numerusform>导出选中的 %n 条消息</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Export all %n message(s) shown</source>
        <translation>
            <numerusform>导出显示的全部 %n 条消息</numerusform>
        </translation>
    </message>
    <message>
        <source>JSON Lines (*.jsonl)</source>
        <translation>JSON Lines (*.jsonl)</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Nothing was exported: %1</source>
        <translation>未导出任何内容：%1</translation>
    </message>
    <message numerus="yes">
        <source>Exported %n message(s) to %1.</source>
        <translation>
            <numerusform>已导出 %n 条消息到 %1。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::OverviewView</name>
    <message>
        <source>Copy NameServer address</source>
        <translation>复制 NameServer 地址</translation>
    </message>
    <message>
        <source>Connect a client:</source>
        <translation>连接客户端：</translation>
    </message>
    <message>
        <source>Embedded broker: %1</source>
        <translation>内嵌 Broker：%1</translation>
    </message>
    <message>
        <source>NameServer: %1
Broker: %2 (%3, cluster %4)
Store: %5
Flush mode: %6</source>
        <translation>NameServer：%1
Broker：%2（%3，集群 %4）
存储：%5
刷盘方式：%6</translation>
    </message>
    <message>
        <source>Store: %1</source>
        <translation>存储：%1</translation>
    </message>
    <message>
        <source>Choose ports…</source>
        <translation>选择端口…</translation>
    </message>
    <message>
        <source>Use ports %1 and %2</source>
        <translation>使用端口 %1 和 %2</translation>
    </message>
    <message>
        <source>Use port %1</source>
        <translation>使用端口 %1</translation>
    </message>
    <message>
        <source>The broker could not start: %1</source>
        <translation>Broker 无法启动：%1</translation>
    </message>
    <message>
        <source>Port %1 (NameServer) is in use by another program; port %2 is free.</source>
        <translation>端口 %1（NameServer）已被其他程序占用；端口 %2 空闲。</translation>
    </message>
    <message>
        <source>Port %1 (broker) is in use by another program; port %2 is free.</source>
        <translation>端口 %1（Broker）已被其他程序占用；端口 %2 空闲。</translation>
    </message>
    <message>
        <source>Use the free port below (remembered for the next start), or choose other ports.</source>
        <translation>使用下面的空闲端口（下次启动时会记住），或选择其他端口。</translation>
    </message>
    <message>
        <source>Choose other ports or another store folder, then use Broker ▸ Start.</source>
        <translation>请选择其他端口或其他存储目录，然后使用“Broker ▸ 启动”。</translation>
    </message>
    <message>
        <source>gRPC (RocketMQ 5 SDKs): %1</source>
        <translation>gRPC（RocketMQ 5 SDK）：%1</translation>
    </message>
    <message>
        <source>gRPC endpoint: %1</source>
        <translation>gRPC 端点：%1</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::PolicyEntryDialog</name>
    <message>
        <source>Edit a policy entry of %1</source>
        <translation>编辑 %1 的策略条目</translation>
    </message>
    <message>
        <source>New policy entry for %1</source>
        <translation>为 %1 新建策略条目</translation>
    </message>
    <message>
        <source>Custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <source>Default (applies when no Custom entry matches)</source>
        <translation>默认（没有匹配的自定义条目时生效）</translation>
    </message>
    <message>
        <source>a name, a prefix ending in *, or * for every one</source>
        <translation>名称、以 * 结尾的前缀，或 * 表示全部</translation>
    </message>
    <message>
        <source>any; or addresses and CIDR blocks, e.g. 10.0.0.0/8, 192.168.1.7</source>
        <translation>任意；或填写地址和 CIDR 网段，例如 10.0.0.0/8, 192.168.1.7</translation>
    </message>
    <message>
        <source>Allow</source>
        <translation>允许</translation>
    </message>
    <message>
        <source>Deny (wins over an Allow of the same resource)</source>
        <translation>拒绝（优先于同一资源的允许）</translation>
    </message>
    <message>
        <source>Policy:</source>
        <translation>策略：</translation>
    </message>
    <message>
        <source>Resource type:</source>
        <translation>资源类型：</translation>
    </message>
    <message>
        <source>Resource:</source>
        <translation>资源：</translation>
    </message>
    <message>
        <source>Actions:</source>
        <translation>操作：</translation>
    </message>
    <message>
        <source>Source IPs:</source>
        <translation>来源 IP：</translation>
    </message>
    <message>
        <source>Decision:</source>
        <translation>决定：</translation>
    </message>
    <message>
        <source>Give the resource&apos;s name, a prefix ending in *, or *</source>
        <translation>请填写资源名称、以 * 结尾的前缀，或 *</translation>
    </message>
    <message>
        <source>The resource %1 is not valid: %2</source>
        <translation>资源 %1 无效：%2</translation>
    </message>
    <message>
        <source>Tick at least one action</source>
        <translation>请至少勾选一个操作</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not an IP address or a CIDR block</source>
        <translation>“%1”不是 IP 地址或 CIDR 网段</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::PolicyEntryModel</name>
    <message>
        <source>any</source>
        <translation>任意</translation>
    </message>
    <message>
        <source>Allow</source>
        <translation>允许</translation>
    </message>
    <message>
        <source>Deny</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <source>Policy</source>
        <translation>策略</translation>
    </message>
    <message>
        <source>Resource</source>
        <translation>资源</translation>
    </message>
    <message>
        <source>Actions</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Source IPs</source>
        <translation>来源 IP</translation>
    </message>
    <message>
        <source>Decision</source>
        <translation>决定</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::RecordTableModel</name>
    <message>
        <source>end-of-file blank</source>
        <translation>文件末尾空白</translation>
    </message>
    <message>
        <source>invalid: %1</source>
        <translation>无效：%1</translation>
    </message>
    <message>
        <source>CRC mismatch</source>
        <translation>CRC 不匹配</translation>
    </message>
    <message>
        <source>wrong position: PHYSICALOFFSET is %1</source>
        <translation>位置错误：PHYSICALOFFSET 为 %1</translation>
    </message>
    <message>
        <source>OK</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>Offset</source>
        <translation>偏移量</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Topic</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>队列</translation>
    </message>
    <message>
        <source>Queue offset</source>
        <translation>队列位点</translation>
    </message>
    <message>
        <source>Store time</source>
        <translation>存储时间</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>标签（Tags）</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>键（Keys）</translation>
    </message>
    <message>
        <source>Body</source>
        <translation>消息体</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::RecordView</name>
    <message>
        <source>Field</source>
        <translation>字段</translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Select a record to see its fields and bytes.</source>
        <translation>选择一条记录以查看其字段和字节。</translation>
    </message>
    <message>
        <source>Reading the record at offset %1…</source>
        <translation>正在读取偏移量 %1 处的记录…</translation>
    </message>
    <message>
        <source>Record at offset %1: %2 bytes</source>
        <translation>偏移量 %1 处的记录：%2 字节</translation>
    </message>
    <message>
        <source> — the end-of-file record; the rest of the file is unused.</source>
        <translation> —— 文件末尾记录；文件其余部分未使用。</translation>
    </message>
    <message>
        <source> — the layout stops: %1</source>
        <translation> —— 布局在此中断：%1</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::ResetOffsetDialog</name>
    <message>
        <source>Reset offsets of %1</source>
        <translation>重置 %1 的位点</translation>
    </message>
    <message>
        <source>&amp;Earliest: consume every stored message again</source>
        <translation>最早(&amp;E)：重新消费所有已存储的消息</translation>
    </message>
    <message>
        <source>&amp;Latest: skip everything not consumed yet</source>
        <translation>最新(&amp;L)：跳过所有尚未消费的消息</translation>
    </message>
    <message>
        <source>By &amp;time: from the first message stored at or after</source>
        <translation>按时间(&amp;T)：从存储时间不早于以下时间的第一条消息开始</translation>
    </message>
    <message>
        <source>Continue…</source>
        <translation>继续…</translation>
    </message>
    <message>
        <source>Move the committed offsets of every queue the group consumes to:</source>
        <translation>将该消费者组所消费的每个队列的已提交位点移到：</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::RuntimeSampler</name>
    <message>
        <source>flush latency (p50/p99/max)</source>
        <translation>刷盘延迟（p50/p99/最大值）</translation>
    </message>
    <message>
        <source>flush timeouts</source>
        <translation>刷盘超时</translation>
    </message>
    <message>
        <source>put-to-ack p50/p99 (no putMessageDistributeTime)</source>
        <translation>写入到确认 p50/p99（无 putMessageDistributeTime）</translation>
    </message>
    <message>
        <source>put-to-ack max (no putMessageEntireTimeMax)</source>
        <translation>写入到确认最大值（无 putMessageEntireTimeMax）</translation>
    </message>
    <message>
        <source>data at risk (no remainHowManyDataToFlush)</source>
        <translation>未刷盘数据（无 remainHowManyDataToFlush）</translation>
    </message>
    <message>
        <source>bytes flushed</source>
        <translation>刷盘字节数</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::SecretStore</name>
    <message>
        <source>the keyring holds no secret key for &quot;%1&quot;</source>
        <translation>密钥环中没有“%1”的 SecretKey</translation>
    </message>
    <message>
        <source>the keyring could not be read: %1</source>
        <translation>无法读取密钥环：%1</translation>
    </message>
    <message>
        <source>The secret key is kept for this session only: the desktop&apos;s keyring could not store it (%1).</source>
        <translation>SecretKey 仅在本次会话中保留：桌面密钥环无法保存它（%1）。</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::SendMessageDialog</name>
    <message>
        <source>Send a test message</source>
        <translation>发送测试消息</translation>
    </message>
    <message>
        <source>optional, e.g. TagA</source>
        <translation>可选，例如 TagA</translation>
    </message>
    <message>
        <source>optional, separated by spaces</source>
        <translation>可选，用空格分隔</translation>
    </message>
    <message>
        <source>Text or JSON, sent as UTF-8</source>
        <translation>文本或 JSON，以 UTF-8 发送</translation>
    </message>
    <message>
        <source>optional, one key=value a line</source>
        <translation>可选，每行一个 key=value</translation>
    </message>
    <message>
        <source>&amp;Topic:</source>
        <translation>主题(&amp;T)：</translation>
    </message>
    <message>
        <source>T&amp;ags:</source>
        <translation>标签(&amp;A)：</translation>
    </message>
    <message>
        <source>&amp;Keys:</source>
        <translation>消息键(&amp;K)：</translation>
    </message>
    <message>
        <source>&amp;Body:</source>
        <translation>消息体(&amp;B)：</translation>
    </message>
    <message>
        <source>&amp;Properties:</source>
        <translation>属性(&amp;P)：</translation>
    </message>
    <message>
        <source>&amp;Send</source>
        <translation>发送(&amp;S)</translation>
    </message>
    <message>
        <source>Enter a topic.</source>
        <translation>请输入主题。</translation>
    </message>
    <message>
        <source>A topic name has at most 127 letters, digits, “_”, “-”, “|” or “%”.</source>
        <translation>主题名最多 127 个字符，只能包含字母、数字、“_”、“-”、“|”或“%”。</translation>
    </message>
    <message>
        <source>Property line %1 is not key=value.</source>
        <translation>属性第 %1 行不是 key=value 格式。</translation>
    </message>
    <message>
        <source>Sending…</source>
        <translation>正在发送…</translation>
    </message>
    <message>
        <source>Sent (%1): message ID %2, queue %3 on %4, queue offset %5.</source>
        <translation>已发送（%1）：消息 ID %2，%4 上的队列 %3，队列位点 %5。</translation>
    </message>
    <message>
        <source>Not sent: %1</source>
        <translation>未发送：%1</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::StoreFileModel</name>
    <message>
        <source>other files</source>
        <translation>其他文件</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Range</source>
        <translation>范围</translation>
    </message>
    <message>
        <source>Fill</source>
        <translation>填充率</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>数量</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::TablePage</name>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Find</source>
        <translation>查找</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::TableText</name>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Export CSV</source>
        <translation>导出 CSV</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Saved %1.</source>
        <translation>已保存 %1。</translation>
    </message>
    <message>
        <source>Export failed: %1</source>
        <translation>导出失败：%1</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::TimeChart</name>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Export PNG…</source>
        <translation>导出 PNG…</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Window:</source>
        <translation>时间窗口：</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <source>Export graph</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG 图片 (*.png)</translation>
    </message>
    <message>
        <source>Export samples</source>
        <translation>导出采样数据</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Saved %1.</source>
        <translation>已保存 %1。</translation>
    </message>
    <message>
        <source>Export failed: %1</source>
        <translation>导出失败：%1</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::TimerEntryModel</name>
    <message>
        <source>end-of-file blank</source>
        <translation>文件末尾空白记录</translation>
    </message>
    <message>
        <source>end-of-file blank: %1</source>
        <translation>文件末尾空白记录：%1</translation>
    </message>
    <message>
        <source>invalid: %1</source>
        <translation>无效：%1</translation>
    </message>
    <message>
        <source>delete marker</source>
        <translation>删除标记</translation>
    </message>
    <message>
        <source>unit (rolled)</source>
        <translation>单元（已滚动）</translation>
    </message>
    <message>
        <source>unit</source>
        <translation>单元</translation>
    </message>
    <message>
        <source>Slot</source>
        <translation>槽</translation>
    </message>
    <message>
        <source>Position</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Time (stored)</source>
        <translation>时间（存储值）</translation>
    </message>
    <message>
        <source>Time (× 1000 ms)</source>
        <translation>时间（× 1000 毫秒）</translation>
    </message>
    <message>
        <source>First pos</source>
        <translation>首位置</translation>
    </message>
    <message>
        <source>Last pos</source>
        <translation>末位置</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>消息数</translation>
    </message>
    <message>
        <source>Magic</source>
        <translation>魔数</translation>
    </message>
    <message>
        <source>Offset</source>
        <translation>偏移量</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Prev pos</source>
        <translation>前一位置</translation>
    </message>
    <message>
        <source>Written at</source>
        <translation>写入时间</translation>
    </message>
    <message>
        <source>Delay (ms)</source>
        <translation>延迟（毫秒）</translation>
    </message>
    <message>
        <source>Target time</source>
        <translation>目标时间</translation>
    </message>
    <message>
        <source>Commit-log offset</source>
        <translation>CommitLog 偏移量</translation>
    </message>
    <message>
        <source>Record size</source>
        <translation>记录大小</translation>
    </message>
    <message>
        <source>Topic hash</source>
        <translation>主题哈希</translation>
    </message>
    <message>
        <source>Field</source>
        <translation>字段</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Local time</source>
        <translation>本地时间</translation>
    </message>
    <message>
        <source>Topic</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>Parked</source>
        <translation>停放数</translation>
    </message>
    <message>
        <source>Changed at</source>
        <translation>变更时间</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>delivered</source>
        <translation>已投递</translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>等待中</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::TimerFileView</name>
    <message>
        <source>timer.csv</source>
        <translation>timer.csv</translation>
    </message>
    <message>
        <source>%1 holds no entries.</source>
        <translation>%1 中没有条目。</translation>
    </message>
    <message>
        <source>Checking the timer files…</source>
        <translation>正在检查定时文件…</translation>
    </message>
    <message>
        <source>No health findings for these bytes.</source>
        <translation>这些字节没有健康问题。</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::TimerTimelineView</name>
    <message>
        <source>now</source>
        <translation>现在</translation>
    </message>
    <message numerus="yes">
        <source>+%n min</source>
        <translation>
            <numerusform>+%n 分钟</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 due from %2</source>
        <translation>%2 起到期 %1 条</translation>
    </message>
    <message>
        <source>Due</source>
        <translation>到期时间</translation>
    </message>
    <message>
        <source>Message id</source>
        <translation>消息 ID</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>键（Keys）</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>标签（Tags）</translation>
    </message>
    <message numerus="yes">
        <source>No timer message is scheduled in the next %n minute(s).</source>
        <translation>
            <numerusform>未来 %n 分钟内没有定时消息。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 timer message(s) due in the next %n minute(s) (precision %2 ms)%3</source>
        <translation>
            <numerusform>未来 %n 分钟内有 %1 条定时消息到期（精度 %2 毫秒）%3</numerusform>
        </translation>
    </message>
    <message>
        <source>, counted up to the scan limit</source>
        <translation>，统计至扫描上限</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::TopicDetailPane</name>
    <message>
        <source>Broker</source>
        <translation>Broker</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>队列</translation>
    </message>
    <message>
        <source>Min offset</source>
        <translation>最小位点</translation>
    </message>
    <message>
        <source>Max offset</source>
        <translation>最大位点</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>消息数</translation>
    </message>
    <message>
        <source>Last stored</source>
        <translation>最后存储时间</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>地址</translation>
    </message>
    <message>
        <source>Read</source>
        <translation>读</translation>
    </message>
    <message>
        <source>Write</source>
        <translation>写</translation>
    </message>
    <message>
        <source>Perm</source>
        <translation>权限</translation>
    </message>
    <message>
        <source>Queues</source>
        <translation>队列</translation>
    </message>
    <message>
        <source>Route</source>
        <translation>路由</translation>
    </message>
    <message>
        <source>Consumer groups</source>
        <translation>消费者组</translation>
    </message>
    <message>
        <source>Select a topic to see its queues, route and consumer groups.</source>
        <translation>选择一个主题以查看其队列、路由和消费者组。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Not connected.</source>
        <translation>未连接。</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>加载中…</translation>
    </message>
    <message>
        <source>never</source>
        <translation>从未</translation>
    </message>
    <message>
        <source>Queues: %1</source>
        <translation>队列：%1</translation>
    </message>
    <message>
        <source>Route: %1</source>
        <translation>路由：%1</translation>
    </message>
    <message>
        <source>No consumer group has consumed it yet.</source>
        <translation>尚无消费者组消费过该主题。</translation>
    </message>
    <message>
        <source>Consumer groups: %1</source>
        <translation>消费者组：%1</translation>
    </message>
    <message>
        <source>Scheduled timer messages</source>
        <translation>定时消息计划</translation>
    </message>
    <message>
        <source>This broker does not report its scheduled timer messages (an MQDesk broker does).</source>
        <translation>该 Broker 不提供定时消息计划（MQDesk Broker 提供）。</translation>
    </message>
    <message>
        <source>Scheduled timer messages: %1</source>
        <translation>定时消息计划：%1</translation>
    </message>
    <message>
        <source>%1 — %2/s now, %3 in the last 24 h</source>
        <translation>%1 — 当前 %2/秒，最近 24 小时 %3 条</translation>
    </message>
    <message>
        <source>Traffic: %1</source>
        <translation>流量：%1</translation>
    </message>
    <message>
        <source>Puts: none since the brokers started.</source>
        <translation>写入：Broker 启动以来没有。</translation>
    </message>
    <message>
        <source>Puts: %1/s in the last minute · %2 in the last hour · %3 in the last 24 h</source>
        <translation>写入：最近一分钟 %1/秒 · 最近一小时 %2 条 · 最近 24 小时 %3 条</translation>
    </message>
    <message>
        <source>Consumer group</source>
        <translation>消费组</translation>
    </message>
    <message>
        <source>Traffic by group</source>
        <translation>按消费组的流量</translation>
    </message>
    <message>
        <source>These brokers do not serve lite topics (RocketMQ 5.5).</source>
        <translation>这些 Broker 不支持轻量主题（LiteTopic，RocketMQ 5.5）。</translation>
    </message>
    <message>
        <source>Not a lite topic: lite topics live under a topic of message type LITE.</source>
        <translation>不是轻量主题的父主题：轻量主题位于消息类型为 LITE 的主题之下。</translation>
    </message>
    <message>
        <source>Lite topics: %1</source>
        <translation>轻量主题：%1</translation>
    </message>
    <message>
        <source>%1 (lag %2)</source>
        <translation>%1（堆积 %2）</translation>
    </message>
    <message numerus="yes">
        <source>%n lite topic(s) · %1 · lite groups: %2</source>
        <translation>
            <numerusform>%n 个轻量主题 · %1 · 轻量消费者组：%2</numerusform>
        </translation>
    </message>
    <message>
        <source>idle ones expire after %1 min</source>
        <translation>空闲的在 %1 分钟后过期</translation>
    </message>
    <message>
        <source>they never expire</source>
        <translation>永不过期</translation>
    </message>
    <message>
        <source>none (a group with the attribute lite.bind.topic)</source>
        <translation>无（带有属性 lite.bind.topic 的消费者组）</translation>
    </message>
    <message>
        <source>Lite group</source>
        <translation>轻量消费者组</translation>
    </message>
    <message>
        <source>Lite topic</source>
        <translation>轻量主题</translation>
    </message>
    <message>
        <source>Lag</source>
        <translation>堆积</translation>
    </message>
    <message>
        <source>Oldest unconsumed</source>
        <translation>最早未消费</translation>
    </message>
    <message>
        <source>Lite topics</source>
        <translation>轻量主题</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::TopicDialog</name>
    <message>
        <source>Edit topic</source>
        <translation>编辑主题</translation>
    </message>
    <message>
        <source>Create topic</source>
        <translation>创建主题</translation>
    </message>
    <message>
        <source>e.g. OrderEvents</source>
        <translation>例如 OrderEvents</translation>
    </message>
    <message>
        <source>RW- (read and write)</source>
        <translation>RW-（读写）</translation>
    </message>
    <message>
        <source>R-- (read only)</source>
        <translation>R--（只读）</translation>
    </message>
    <message>
        <source>-W- (write only)</source>
        <translation>-W-（只写）</translation>
    </message>
    <message>
        <source>--- (no access)</source>
        <translation>---（不可访问）</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Create</source>
        <translation>创建</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <source>&amp;Read queues:</source>
        <translation>读队列数(&amp;R)：</translation>
    </message>
    <message>
        <source>&amp;Write queues:</source>
        <translation>写队列数(&amp;W)：</translation>
    </message>
    <message>
        <source>&amp;Permission:</source>
        <translation>权限(&amp;P)：</translation>
    </message>
    <message>
        <source>Enter a topic name.</source>
        <translation>请输入主题名称。</translation>
    </message>
    <message>
        <source>Use at most 127 letters, digits, &apos;-&apos;, &apos;_&apos;, &apos;%&apos; or &apos;|&apos;.</source>
        <translation>最多 127 个字符，只能使用字母、数字、“-”、“_”、“%”或“|”。</translation>
    </message>
    <message>
        <source>%RETRY% and %DLQ% topics belong to consumer groups; the broker creates them.</source>
        <translation>%RETRY% 和 %DLQ% 主题属于消费者组，由 Broker 自动创建。</translation>
    </message>
    <message>
        <source>UNSPECIFIED, is NORMAL</source>
        <translation>未指定，为普通消息</translation>
    </message>
    <message>
        <source>Message &amp;type:</source>
        <translation>消息类型(&amp;T)：</translation>
    </message>
    <message>
        <source>RocketMQ 5 clients check that what they send matches the topic&apos;s type: FIFO for ordered messages (message group), DELAY for timed delivery, TRANSACTION for transactional messages, PRIORITY for messages with a priority (RocketMQ 5.4: the priority picks the queue and consumers read the highest first).</source>
        <translation>RocketMQ 5 客户端会检查发送的消息是否与主题类型相符：顺序消息（消息组）用 FIFO，定时投递用 DELAY，事务消息用 TRANSACTION，带优先级的消息用 PRIORITY（RocketMQ 5.4：优先级决定队列，消费者先读最高优先级）。</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::TopicTableModel</name>
    <message>
        <source>normal</source>
        <translation>普通</translation>
    </message>
    <message>
        <source>retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <source>DLQ</source>
        <translation>死信（DLQ）</translation>
    </message>
    <message>
        <source>system</source>
        <translation>系统</translation>
    </message>
    <message>
        <source>…</source>
        <translation>…</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>不适用</translation>
    </message>
    <message>
        <source>Topic</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Read queues</source>
        <translation>读队列数</translation>
    </message>
    <message>
        <source>Write queues</source>
        <translation>写队列数</translation>
    </message>
    <message>
        <source>Perm</source>
        <translation>权限</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>消息数</translation>
    </message>
    <message>
        <source>Message type</source>
        <translation>消息类型</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::TopicsView</name>
    <message>
        <source>Filter topics (Ctrl+F)</source>
        <translation>过滤主题（Ctrl+F）</translation>
    </message>
    <message>
        <source>All kinds</source>
        <translation>全部类型</translation>
    </message>
    <message>
        <source>&amp;New topic…</source>
        <translation>新建主题(&amp;N)…</translation>
    </message>
    <message>
        <source>&amp;Edit…</source>
        <translation>编辑(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation>删除(&amp;D)…</translation>
    </message>
    <message>
        <source>Fetch the topics again (F5)</source>
        <translation>重新获取主题（F5）</translation>
    </message>
    <message>
        <source>Some topics could not be read: %1</source>
        <translation>部分主题无法读取：%1</translation>
    </message>
    <message>
        <source>Creating topic %1…</source>
        <translation>正在创建主题 %1…</translation>
    </message>
    <message>
        <source>Saving topic %1…</source>
        <translation>正在保存主题 %1…</translation>
    </message>
    <message>
        <source>Topic %1 was not created: %2</source>
        <translation>主题 %1 未创建：%2</translation>
    </message>
    <message>
        <source>Topic %1 was not saved: %2</source>
        <translation>主题 %1 未保存：%2</translation>
    </message>
    <message>
        <source>%1 read / %2 write queues, %3 on each master</source>
        <translation>%1 个读队列 / %2 个写队列，每个主节点上 %3</translation>
    </message>
    <message>
        <source>Topic %1 created: %2.</source>
        <translation>主题 %1 已创建：%2。</translation>
    </message>
    <message>
        <source>Topic %1 saved: %2.</source>
        <translation>主题 %1 已保存：%2。</translation>
    </message>
    <message numerus="yes">
        <source>Its %n stored message(s) will no longer be readable. </source>
        <translation>
            <numerusform>其中已存储的 %n 条消息将无法再读取。</numerusform>
        </translation>
    </message>
    <message>
        <source>Delete topic</source>
        <translation>删除主题</translation>
    </message>
    <message>
        <source>Delete topic %1 from every broker and NameServer?</source>
        <translation>从所有 Broker 和 NameServer 中删除主题 %1？</translation>
    </message>
    <message>
        <source>Producers and consumers using it will fail until it is created again.</source>
        <translation>使用该主题的生产者和消费者将会失败，直到重新创建该主题。</translation>
    </message>
    <message>
        <source>Delete %1</source>
        <translation>删除 %1</translation>
    </message>
    <message>
        <source>Deleting topic %1…</source>
        <translation>正在删除主题 %1…</translation>
    </message>
    <message>
        <source>Topic %1 deleted.</source>
        <translation>主题 %1 已删除。</translation>
    </message>
    <message>
        <source>Topic %1 was not deleted: %2</source>
        <translation>主题 %1 未删除：%2</translation>
    </message>
    <message>
        <source>Not connected. The topics appear here once the embedded broker is running.</source>
        <translation>未连接。内嵌 Broker 运行后主题会显示在这里。</translation>
    </message>
    <message>
        <source>Loading topics…</source>
        <translation>正在加载主题…</translation>
    </message>
    <message>
        <source>The topics could not be read: %1
Check that the broker is running, then press F5.</source>
        <translation>无法读取主题：%1
请检查 Broker 是否在运行，然后按 F5。</translation>
    </message>
    <message>
        <source>No topics yet. Create one with “New topic…”, or send to a new topic from a client using the NameServer %1.</source>
        <translation>还没有主题。可用“新建主题…”创建，或让客户端通过 NameServer %1 向新主题发送消息。</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>加载中…</translation>
    </message>
    <message numerus="yes">
        <source>%n topic(s)</source>
        <translation>
            <numerusform>%n 个主题</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n topic(s)</source>
        <translation>
            <numerusform>%1 / %n 个主题</numerusform>
        </translation>
    </message>
    <message>
        <source>The broker owns system topics.</source>
        <translation>系统主题归 Broker 所有。</translation>
    </message>
    <message>
        <source>topics.csv</source>
        <translation>topics.csv</translation>
    </message>
    <message>
        <source>Show topics of one message type (RocketMQ 5 topic attribute message.type)</source>
        <translation>只显示一种消息类型的主题（RocketMQ 5 主题属性 message.type）</translation>
    </message>
    <message>
        <source>All types</source>
        <translation>全部消息类型</translation>
    </message>
    <message>
        <source>No topic matches the filter. Clear the search field or choose “All kinds” and “All types”.</source>
        <translation>没有匹配过滤条件的主题。请清空搜索框，或选择“全部类型”和“全部消息类型”。</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::TrafficChart</name>
    <message>
        <source>Now (msg/s)</source>
        <translation>当前（条/秒）</translation>
    </message>
    <message>
        <source>Last hour</source>
        <translation>最近一小时</translation>
    </message>
    <message>
        <source>Last 24 h</source>
        <translation>最近 24 小时</translation>
    </message>
    <message>
        <source>Bytes, last 24 h</source>
        <translation>字节数（最近 24 小时）</translation>
    </message>
    <message>
        <source>Messages, last 24 h</source>
        <translation>消息数（最近 24 小时）</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::UserDialog</name>
    <message>
        <source>Edit user %1</source>
        <translation>编辑用户 %1</translation>
    </message>
    <message>
        <source>New user</source>
        <translation>新建用户</translation>
    </message>
    <message>
        <source>Normal: what its policies allow</source>
        <translation>普通：按其策略授权</translation>
    </message>
    <message>
        <source>Super: everything, no policies needed</source>
        <translation>超级：拥有全部权限，无需策略</translation>
    </message>
    <message>
        <source>enabled</source>
        <translation>已启用</translation>
    </message>
    <message>
        <source>disabled: every request refused</source>
        <translation>已禁用：拒绝所有请求</translation>
    </message>
    <message>
        <source>unchanged</source>
        <translation>不变</translation>
    </message>
    <message>
        <source>the user&apos;s secret key</source>
        <translation>该用户的 SecretKey</translation>
    </message>
    <message>
        <source>Username (access key):</source>
        <translation>用户名（AccessKey）：</translation>
    </message>
    <message>
        <source>Password (secret key):</source>
        <translation>密码（SecretKey）：</translation>
    </message>
    <message>
        <source>Type:</source>
        <translation>类型：</translation>
    </message>
    <message>
        <source>Status:</source>
        <translation>状态：</translation>
    </message>
    <message>
        <source>Give the username</source>
        <translation>请填写用户名</translation>
    </message>
    <message>
        <source>A username has no blanks or &apos;:&apos;</source>
        <translation>用户名不能包含空格或“:”</translation>
    </message>
    <message>
        <source>Give the password: clients sign their requests with it</source>
        <translation>请填写密码：客户端用它签名请求</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::UserTableModel</name>
    <message>
        <source>Default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>Custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <source>Super</source>
        <translation>超级</translation>
    </message>
    <message>
        <source>Normal</source>
        <translation>普通</translation>
    </message>
    <message>
        <source>enabled</source>
        <translation>已启用</translation>
    </message>
    <message>
        <source>disabled</source>
        <translation>已禁用</translation>
    </message>
    <message>
        <source>— (may do everything)</source>
        <translation>—（可以做任何事）</translation>
    </message>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Policy entries</source>
        <translation>策略条目</translation>
    </message>
    <message>
        <source>the user is disabled: every request is refused</source>
        <translation>该用户已禁用：所有请求都会被拒绝</translation>
    </message>
    <message>
        <source>a Super user may do everything</source>
        <translation>超级用户可以做任何事</translation>
    </message>
    <message>
        <source>no policy entry matches: denied</source>
        <translation>没有匹配的策略条目：拒绝</translation>
    </message>
    <message>
        <source>%1 policy: %2 %3 %4</source>
        <translation>%1 策略：%2 %3 %4</translation>
    </message>
    <message>
        <source>Allow</source>
        <translation>允许</translation>
    </message>
    <message>
        <source>Deny</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <source>Topic</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>Group</source>
        <translation>消费者组</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>Namespace</source>
        <translation>命名空间</translation>
    </message>
    <message>
        <source>Any resource</source>
        <translation>任意资源</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::WritePathCostModel</name>
    <message>
        <source>The median of the per-second figures over the busy seconds</source>
        <translation>有写入的各秒中每秒数值的中位数</translation>
    </message>
    <message>
        <source>Write path</source>
        <translation>写入路径</translation>
    </message>
    <message>
        <source>Flush mode</source>
        <translation>刷盘方式</translation>
    </message>
    <message>
        <source>Seconds with puts</source>
        <translation>有写入的秒数</translation>
    </message>
    <message>
        <source>Put TPS</source>
        <translation>写入 TPS</translation>
    </message>
    <message>
        <source>Put-to-ack p50 (µs)</source>
        <translation>写入到确认 p50（µs）</translation>
    </message>
    <message>
        <source>Put-to-ack p99 (µs)</source>
        <translation>写入到确认 p99（µs）</translation>
    </message>
    <message>
        <source>Flush p50 (µs)</source>
        <translation>刷盘 p50（µs）</translation>
    </message>
    <message>
        <source>File warm-ups</source>
        <translation>文件预热</translation>
    </message>
</context>
<context>
    <name>mqdesk::ui::WritePathPanel</name>
    <message>
        <source>Write without mmap (pwrite)</source>
        <translation>不经 mmap 写入（pwrite）</translation>
    </message>
    <message>
        <source>writeWithoutMmap, applied live with UPDATE_BROKER_CONFIG: appends go through pwrite instead of a copy into the mapped file. Usually faster with SYNC_FLUSH, slower with ASYNC_FLUSH: compare the rows below.</source>
        <translation>writeWithoutMmap，通过 UPDATE_BROKER_CONFIG 在线生效：追加写入使用 pwrite，而不是复制到映射文件中。通常在 SYNC_FLUSH 下更快、在 ASYNC_FLUSH 下更慢：请比较下方各行。</translation>
    </message>
    <message>
        <source>useReentrantLockWhenPutMessage, warmMapedFileEnable and flushLeastPagesWhenWarmMapedFile are read from broker.conf when the broker starts</source>
        <translation>useReentrantLockWhenPutMessage、warmMapedFileEnable 和 flushLeastPagesWhenWarmMapedFile 在 Broker 启动时从 broker.conf 读取</translation>
    </message>
    <message>
        <source>What each write path cost under each flush mode over the seconds this monitor holds. Switch writeWithoutMmap or the flush mode under the same load to compare.</source>
        <translation>在本监视器保存的各秒中，每种写入路径在每种刷盘方式下的代价。在相同负载下切换 writeWithoutMmap 或刷盘方式即可比较。</translation>
    </message>
    <message>
        <source>none yet</source>
        <translation>暂无</translation>
    </message>
    <message>
        <source>1 file, %1 in %2 ms</source>
        <translation>1 个文件，%1，用时 %2 ms</translation>
    </message>
    <message>
        <source>%1 files, %2 in %3 ms (%4 ms a file)</source>
        <translation>%1 个文件，%2，用时 %3 ms（每个文件 %4 ms）</translation>
    </message>
    <message>
        <source>This broker does not report its write path.</source>
        <translation>该 Broker 不报告其写入路径。</translation>
    </message>
    <message>
        <source>mutex</source>
        <translation>互斥锁</translation>
    </message>
    <message>
        <source>spin lock</source>
        <translation>自旋锁</translation>
    </message>
    <message>
        <source>on, fdatasync every %1 pages; so far %2</source>
        <translation>开启，每 %1 页 fdatasync 一次；迄今 %2</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Put lock: %1 · File warm-up: %2</source>
        <translation>写入锁：%1 · 文件预热：%2</translation>
    </message>
</context>
</TS>
