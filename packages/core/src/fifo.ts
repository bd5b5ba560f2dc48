/** FIFO with amortised O(1) `push`/`shift`: an array plus a head and a tail index. */
export class Fifo<T> {
  private items: Array<T | undefined> = []
  private head = 0
  private tail = 0

  /** Entries stored, live or dead. */
  get length(): number {
    return this.tail - this.head
  }

  push(value: T): void {
    this.items[this.tail++] = value
  }

  peek(): T | undefined {
    return this.head < this.tail ? this.items[this.head] : undefined
  }

  shift(): T | undefined {
    if (this.head >= this.tail) return undefined
    const items = this.items
    const value = items[this.head]
    items[this.head++] = undefined
    if (this.head === this.tail) {
      // Empty: reset in place (`length = 0` also gives back the backing store).
      items.length = 0
      this.head = 0
      this.tail = 0
    } else if (this.head >= 1024 && this.head * 2 >= this.tail) {
      // The consumed prefix dominates: move the tail down once (amortised O(1)).
      items.copyWithin(0, this.head, this.tail)
      this.tail -= this.head
      items.length = this.tail
      this.head = 0
    }
    return value
  }

  /** Keeps only the entries for which `keep` is true, in order. O(length). */
  retain(keep: (value: T) => boolean): void {
    const items = this.items
    let w = 0
    for (let r = this.head; r < this.tail; r++) {
      const v = items[r] as T
      if (keep(v)) items[w++] = v
    }
    items.length = w
    this.head = 0
    this.tail = w
  }
}
