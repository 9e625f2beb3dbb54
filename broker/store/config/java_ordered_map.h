#pragma once

// A map that keeps the entry order RocketMQ's Java maps have in its config files.
//
// fastjson writes a map in its Java iteration order: HashMap and ConcurrentHashMap iterate by
// hash bucket (spread(hashCode) & (tableSize - 1)), so the order depends on the keys' hashes and
// the table size, not on insertion. A JavaOrderedMap keeps the order of the file it was read
// from and puts a key added later where the Java map of the same shape would iterate it, in front
// of the first entry of a higher bucket. (Within one bucket Java keeps insertion order, except
// after ConcurrentHashMap resizes and in tree bins of 8+ colliding keys, which are not modelled.)

#include "broker/common/java_hash.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace mqdesk::store {

// The Java map a table is held in, as RocketMQ constructs it.
struct JavaMapShape
{
    enum class Kind { HashMap, ConcurrentHashMap };
    Kind kind = Kind::ConcurrentHashMap;
    int64_t initialCapacity = 16;

    static JavaMapShape hashMap(int64_t capacity = 16) { return {Kind::HashMap, capacity}; }
    static JavaMapShape concurrent(int64_t capacity = 16) { return {Kind::ConcurrentHashMap, capacity}; }

    // The table size once `count` entries are in: HashMap grows when size exceeds 3/4 of the
    // table, ConcurrentHashMap when it reaches 3/4; neither shrinks.
    int64_t tableSize(size_t count) const
    {
        const auto powerOfTwoAtLeast = [](int64_t n) {
            int64_t size = 1;
            while (size < n)
                size <<= 1;
            return size;
        };
        int64_t size = kind == Kind::HashMap
                           ? powerOfTwoAtLeast(initialCapacity)
                           : powerOfTwoAtLeast(initialCapacity + (initialCapacity >> 1) + 1);
        const auto limit = [&] { return size - (size >> 2); };
        while (kind == Kind::HashMap ? static_cast<int64_t>(count) > limit()
                                     : static_cast<int64_t>(count) >= limit())
            size <<= 1;
        return size;
    }
};

inline int32_t javaHashCode(const std::string &key) { return common::javaStringHashCode(key); }
inline int32_t javaHashCode(int32_t key) { return key; } // Integer.hashCode

// HashMap.hash / ConcurrentHashMap.spread, reduced to a bucket of a table of `tableSize`.
inline uint32_t javaBucket(int32_t hashCode, int64_t tableSize)
{
    const auto h = static_cast<uint32_t>(hashCode);
    return (h ^ (h >> 16)) & static_cast<uint32_t>(tableSize - 1);
}

// The iteration order of a Java HashMap holding `keys` (distinct, in insertion order): by bucket
// of the final table, ties in insertion order (a HashMap resize keeps the relative order of the
// entries of a bucket). Used for maps built fresh at each write, like groupTopicMap.
template<typename Key>
std::vector<Key> javaHashMapOrder(std::vector<Key> keys, JavaMapShape shape)
{
    const int64_t table = shape.tableSize(keys.size());
    std::vector<std::pair<uint32_t, size_t>> order;
    order.reserve(keys.size());
    for (size_t i = 0; i < keys.size(); ++i)
        order.emplace_back(javaBucket(javaHashCode(keys[i]), table), i);
    std::stable_sort(order.begin(), order.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    std::vector<Key> sorted;
    sorted.reserve(keys.size());
    for (const auto &entry : order)
        sorted.push_back(std::move(keys[entry.second]));
    return sorted;
}

template<typename Key, typename Value>
class JavaOrderedMap
{
public:
    using Entry = std::pair<Key, Value>;

    explicit JavaOrderedMap(JavaMapShape shape = JavaMapShape()) : shape_(shape) {}

    size_t size() const { return entries_.size(); }
    bool empty() const { return entries_.empty(); }
    typename std::vector<Entry>::const_iterator begin() const { return entries_.begin(); }
    typename std::vector<Entry>::const_iterator end() const { return entries_.end(); }
    const std::vector<Entry> &entries() const { return entries_; }

    const Value *find(const Key &key) const
    {
        const auto it = index_.find(key);
        return it == index_.end() ? nullptr : &entries_[it->second].second;
    }
    Value *find(const Key &key)
    {
        const auto it = index_.find(key);
        return it == index_.end() ? nullptr : &entries_[it->second].second;
    }
    bool contains(const Key &key) const { return index_.count(key) != 0; }

    // For readers: keeps the order of the file. A repeated key replaces the value in place.
    Value &append(Key key, Value value)
    {
        if (Value *existing = find(key)) {
            *existing = std::move(value);
            return *existing;
        }
        index_.emplace(key, entries_.size());
        entries_.emplace_back(std::move(key), std::move(value));
        return entries_.back().second;
    }

    // Replaces the value of a present key in place; puts a new key where Java would iterate it.
    Value &insertOrAssign(Key key, Value value)
    {
        if (Value *existing = find(key)) {
            *existing = std::move(value);
            return *existing;
        }
        const int64_t table = shape_.tableSize(entries_.size() + 1);
        const uint32_t bucket = javaBucket(javaHashCode(key), table);
        size_t position = entries_.size();
        for (size_t i = 0; i < entries_.size(); ++i) {
            if (javaBucket(javaHashCode(entries_[i].first), table) > bucket) {
                position = i;
                break;
            }
        }
        entries_.emplace(entries_.begin() + static_cast<std::ptrdiff_t>(position), std::move(key),
                         std::move(value));
        reindexFrom(position);
        return entries_[position].second;
    }

    // The value of `key`, inserted default-constructed (at its Java position) when absent.
    Value &getOrInsert(const Key &key)
    {
        if (Value *existing = find(key))
            return *existing;
        return insertOrAssign(key, Value());
    }

    bool erase(const Key &key)
    {
        const auto it = index_.find(key);
        if (it == index_.end())
            return false;
        const size_t position = it->second;
        index_.erase(it);
        entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(position));
        reindexFrom(position);
        return true;
    }

    void clear()
    {
        entries_.clear();
        index_.clear();
    }

    // Order matters: two maps with the same entries in another order differ on disk.
    bool operator==(const JavaOrderedMap &other) const { return entries_ == other.entries_; }

private:
    void reindexFrom(size_t position)
    {
        for (size_t i = position; i < entries_.size(); ++i)
            index_[entries_[i].first] = i;
    }

    JavaMapShape shape_;
    std::vector<Entry> entries_;
    std::unordered_map<Key, size_t> index_;
};

} // namespace mqdesk::store
