// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// One deposit address per order (docs/decisions.md, "A deposit address per order").
///
/// The factory is deployed once for the shop's receiving address. Every order's deposit
/// address is the CREATE2 address of a minimal proxy (EIP-1167) to one DepositForwarder,
/// salted by the order: it is known before anything is deployed, and ETH sent to it waits
/// there until a sweep deploys the proxy and flushes it, in one transaction.
///
/// Who can do what: anyone may sweep or recover tokens, and both only ever move what an
/// address holds to the receiving address, fixed when the factory was deployed. Nothing
/// has an owner, nothing can be upgraded, nothing can send anywhere else.

/// What every deposit proxy runs (through DELEGATECALL): it holds no state.
contract DepositForwarder {
    /// The shop's receiving address; in the code, so the proxies read it too.
    address payable public immutable receiver;

    event Flushed(uint256 amount);

    constructor(address payable receiver_) {
        require(receiver_ != address(0), "no receiver");
        receiver = receiver_;
    }

    /// ETH that arrives after a sweep waits for the next one.
    receive() external payable {}

    /// Sends the whole ETH balance to the receiving address. Anyone may call it.
    function flush() public {
        uint256 amount = address(this).balance;
        if (amount == 0) return;
        (bool ok, ) = receiver.call{value: amount}("");
        require(ok, "flush failed");
        emit Flushed(amount);
    }

    /// Sends the whole balance of an ERC-20 token sent here by mistake to the receiving
    /// address. Anyone may call it; tokens that return nothing from transfer (USDT) work.
    function flushToken(address token) external {
        (bool ok, bytes memory data) = token.staticcall(abi.encodeWithSelector(0x70a08231, address(this)));
        require(ok && data.length >= 32, "balanceOf failed");
        uint256 amount = abi.decode(data, (uint256));
        if (amount == 0) return;
        (ok, data) = token.call(abi.encodeWithSelector(0xa9059cbb, receiver, amount));
        require(ok && (data.length == 0 || abi.decode(data, (bool))), "token transfer failed");
    }
}

contract DepositFactory {
    address payable public immutable receiver;
    address public immutable forwarder;
    /// keccak256 of the proxy's init code, the same for every salt.
    bytes32 public immutable proxyCodeHash;

    constructor(address payable receiver_) {
        require(receiver_ != address(0), "no receiver");
        receiver = receiver_;
        // The factory's first CREATE: its address is known from the factory's alone.
        forwarder = address(new DepositForwarder(receiver_));
        proxyCodeHash = keccak256(_proxyInitCode(forwarder));
    }

    /// The EIP-1167 proxy to the forwarder: 55 bytes of init code, the same for every salt.
    function proxyInitCode() external view returns (bytes memory) {
        return _proxyInitCode(forwarder);
    }

    function depositAddress(bytes32 salt) public view returns (address) {
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), salt, proxyCodeHash)))));
    }

    /// Deploys (when not yet) and flushes each salt's deposit address holding ETH; an
    /// empty one is skipped. Anyone may call it.
    function sweep(bytes32[] calldata salts) external {
        for (uint256 i = 0; i < salts.length; i++) {
            if (depositAddress(salts[i]).balance == 0) continue;
            DepositForwarder(payable(_deployed(salts[i]))).flush();
        }
    }

    /// Deploys (when not yet) a deposit address and sends a token it holds to the receiving address.
    function recoverToken(bytes32 salt, address token) external {
        DepositForwarder(payable(_deployed(salt))).flushToken(token);
    }

    function _deployed(bytes32 salt) private returns (address at) {
        at = depositAddress(salt);
        if (at.code.length > 0) return at;
        bytes memory code = _proxyInitCode(forwarder);
        address created;
        assembly {
            created := create2(0, add(code, 0x20), mload(code), salt)
        }
        require(created == at, "deploy failed");
    }

    function _proxyInitCode(address target) private pure returns (bytes memory) {
        return abi.encodePacked(hex"3d602d80600a3d3981f3363d3d373d3d3d363d73", target, hex"5af43d82803e903d91602b57fd5bf3");
    }
}
