import ArgumentParser

@main
struct Boomic: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "An event-sourced music library.")
}
